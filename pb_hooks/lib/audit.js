// @ts-check
/// <reference path="../../types/hooks.d.ts" />

// The audit log (docs/decisions/0054-audit-log.md): who did what, when, from which address and device,
// never any message content. Each entry's hash covers its fields and the previous entry's hash, so a
// row changed or removed afterwards breaks the chain from there on (`verifyChain`).

/** The fields an entry's hash covers, in this order. */
const HASHED = ["seq", "at", "actor", "action", "target", "ip", "device", "details", "prev_hash"];

/**
 * The hash of one entry: SHA-256 over its fields as one JSON array.
 * @param {{ [k: string]: unknown }} entry
 */
function entryHash(entry) {
  return $security.sha256(JSON.stringify(HASHED.map((name) => (name === "details" ? canonical(entry.details) : entry[name]))));
}

/**
 * A JSON value with its object keys sorted, so the same details always hash the same.
 * @param {unknown} value
 * @returns {unknown}
 */
function canonical(value) {
  if (value === null || value === undefined) return null;
  if (Array.isArray(value)) return value.map(canonical);
  if (typeof value === "object") {
    /** @type {{ [k: string]: unknown }} */
    const out = {};
    for (const key of Object.keys(value).sort()) out[key] = canonical(/** @type {any} */ (value)[key]);
    return out;
  }
  return value;
}

/**
 * Where a request came from: its address and a short description of its browser.
 * @param {core.RequestEvent | undefined} e
 */
function origin(e) {
  if (!e) return { ip: "", device: "" };
  let ip = "";
  try {
    ip = e.realIP();
  } catch (_) {}
  const agent = String(e.request?.header.get("User-Agent") || "");
  return { ip: ip.slice(0, 64), device: agent.slice(0, 200) };
}

/**
 * Appends one entry. `details` says what happened in a few fields (ids, names of settings, counts):
 * never message content, keys or passwords.
 * @param {core.App} app  the transaction's app when the action runs in one, so both land or neither
 * @param {core.RequestEvent | undefined} e  the request, for its address and browser (undefined for the system)
 * @param {{ actor: string, action: string, target?: string, details?: { [k: string]: unknown } }} what
 */
function append(app, e, what) {
  const last = app.findRecordsByFilter("audit_log", "", "-seq", 1, 0);
  const prev = last.length > 0 ? last[0] : null;
  const where = origin(e);
  const entry = {
    seq: prev ? prev.getInt("seq") + 1 : 1,
    at: new Date().toISOString(),
    actor: what.actor,
    action: what.action,
    target: what.target || "",
    ip: where.ip,
    device: where.device,
    details: canonical(what.details || {}),
    prev_hash: prev ? prev.getString("hash") : "",
  };
  const record = new Record(app.findCollectionByNameOrId("audit_log"));
  for (const name of HASHED) record.set(name, /** @type {any} */ (entry)[name]);
  record.set("hash", entryHash(entry));
  app.save(record);
}

/**
 * The entry as it was hashed: its fields read back from a stored row.
 * @param {core.Record} row
 */
function storedEntry(row) {
  return {
    seq: row.getInt("seq"),
    at: row.getString("at"),
    actor: row.getString("actor"),
    action: row.getString("action"),
    target: row.getString("target"),
    ip: row.getString("ip"),
    device: row.getString("device"),
    details: JSON.parse(row.getString("details") || "null"),
    prev_hash: row.getString("prev_hash"),
  };
}

/**
 * Walks the whole chain in order: `{ok: true, count}` or the first entry that does not hold
 * (`{ok: false, seq, count}`: its hash, its link to the one before, or a missing number).
 * @param {core.App} app
 * @returns {{ ok: boolean, count: number, seq?: number }}
 */
function verifyChain(app) {
  const PAGE = 500;
  let prevHash = "";
  let expected = 1;
  for (let offset = 0; ; offset += PAGE) {
    const rows = app.findRecordsByFilter("audit_log", "", "seq", PAGE, offset);
    for (const row of rows) {
      const entry = storedEntry(row);
      if (entry.seq !== expected || entry.prev_hash !== prevHash || entryHash(entry) !== row.getString("hash"))
        return { ok: false, count: expected - 1, seq: entry.seq !== expected ? expected : entry.seq };
      prevHash = row.getString("hash");
      expected++;
    }
    if (rows.length < PAGE) return { ok: true, count: expected - 1 };
  }
}

module.exports = { append, verifyChain, storedEntry };

// @ts-check
/// <reference path="../../types/hooks.d.ts" />

// The audit log (docs/decisions/0054-audit-log.md): who did what, when, from which address and device,
// never any message content. One writer for Go and the hooks: pocketbase/audit.go, here as $audit.
// Each entry's hash covers its fields and the previous entry's hash, so a row changed or removed
// afterwards breaks the chain from there on (`verifyChain`).

/**
 * Appends one entry. `details` says what happened in a few fields (ids, names of settings, counts):
 * never message content, keys, passwords, tokens or sealed channels' names.
 * @param {core.App} app  the transaction's app when the action runs in one, so both land or neither
 * @param {core.RequestEvent | undefined} e  the request, for its address and device (undefined for the system)
 * @param {{ actor: string, action: string, target?: string, details?: { [k: string]: unknown } }} what
 */
function append(app, e, what) {
  $audit.append(app, e || null, what);
}

/**
 * Walks the whole chain in order: `{ok: true, count}` or the first entry that does not hold
 * (`{ok: false, seq, count}`: its hash, its link to the one before, or a missing number).
 * @param {core.App} app
 * @returns {{ ok: boolean, count: number, seq?: number }}
 */
function verifyChain(app) {
  return $audit.verify(app);
}

module.exports = { append, verifyChain };

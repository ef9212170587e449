// @ts-check
/// <reference path="../../types/hooks.d.ts" />

// Reading the audit log (docs/decisions/0054-audit-log.md): pages for the console, each person's own
// entries, and the JSON Lines export. Only hooks read it: the collection has no API rules.

const { badRequest } = require(`${__hooks}/lib/errors.js`);

const PER_PAGE_MAX = 200;
const PERSON = /^[a-z0-9]{15}$/;
const CHANNEL = /^[a-zA-Z0-9-]{1,64}$/;
const ACTION = /^[a-z0-9_.]{1,60}$/;
const INSTANT = /^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(\.[0-9]{3})?Z$/;

/**
 * An entry as the console and the export show it (names of the people and the channel it names, when
 * they still exist).
 * @param {core.Record} row
 * @param {{ person: (id: string) => string, channel: (id: string) => string }} names
 */
function entryOf(row, names) {
  const actor = row.getString("actor");
  const target = row.getString("target");
  const action = row.getString("action");
  const details = JSON.parse(row.getString("details") || "{}");
  // the channel an entry is about: its details' (an invite's, a removal's), or its target (channel.*,
  // a channel's own retention period)
  const aboutChannel = action.startsWith("channel.") || details.setting === "channel_retention_days";
  const channel = typeof details.channel === "string" ? details.channel : aboutChannel ? target : "";
  return {
    seq: row.getInt("seq"),
    at: row.getString("at"),
    actor,
    actor_name: actor ? names.person(actor) : "",
    action,
    target,
    target_name: target ? names.person(target) : "",
    channel_name: channel ? names.channel(channel) : "",
    ip: row.getString("ip"),
    device: row.getString("device"),
    details,
    prev_hash: row.getString("prev_hash"),
    hash: row.getString("hash"),
  };
}

/**
 * Names by id, each looked up once: a person's username; a channel's "#name", "a sealed channel" or "a
 * direct conversation" (whose names stay with their members), or "" once it is deleted.
 * @param {core.App} app
 */
function namer(app) {
  /** @type {{ [id: string]: string }} */
  const people = {};
  /** @type {{ [id: string]: string }} */
  const channels = {};
  return {
    person: (/** @type {string} */ id) => {
      if (!(id in people)) {
        let name = "";
        if (PERSON.test(id)) {
          try {
            name = app.findRecordById("profiles", id).getString("username");
          } catch (_) {}
        }
        people[id] = name;
      }
      return people[id];
    },
    channel: (/** @type {string} */ id) => {
      if (!(id in channels)) {
        let name = "";
        if (CHANNEL.test(id)) {
          try {
            const record = app.findRecordById("channels", id);
            // (the console names neither a sealed channel nor a direct conversation: they stay with their members)
            name = record.getBool("direct")
              ? "a direct conversation"
              : record.getBool("sealed")
                ? "a sealed channel"
                : `#${record.getString("name")}`;
          } catch (_) {}
        }
        channels[id] = name;
      }
      return channels[id];
    },
  };
}

/**
 * A whole number query parameter within min..max (the default when absent); 400 otherwise.
 * @param {string} value
 * @param {string} name
 * @param {number} fallback
 * @param {number} min
 * @param {number} max
 */
function numberParam(value, name, fallback, min, max) {
  if (value === "") return fallback;
  if (!/^[0-9]{1,6}$/.test(value) || Number(value) < min || Number(value) > max) {
    throw badRequest(`${name} must be a whole number from ${min} to ${max}.`);
  }
  return Number(value);
}

/**
 * The filter of a console query: ?person=<user id>&action=<action or its prefix, e.g. "signin.">&since=
 * <instant>&until=<instant> (UTC, ISO 8601: entries from `since`, before `until`), and the entries up to
 * a number (`upto`, 0 for all) or after it (`after`).
 * @param {{ [name: string]: string }} query
 * @param {{ upto?: number, after?: number }} [bounds]
 */
function filterOf(query, bounds = {}) {
  const person = query.person || "";
  const action = query.action || "";
  if (person && !PERSON.test(person)) throw badRequest("person must be an account id.");
  if (action && !ACTION.test(action)) throw badRequest("action must be an action name such as role.changed.");
  const since = query.since || "";
  const until = query.until || "";
  for (const [name, value] of [
    ["since", since],
    ["until", until],
  ]) {
    if (value && (!INSTANT.test(value) || isNaN(Date.parse(value))))
      throw badRequest(`${name} must be a time such as 2026-12-05T00:00:00Z.`);
  }
  const filters = [];
  const sql = [];
  // (entries' times are written as 2026-12-05T10:00:00.000Z: compared as text, in order)
  if (since) {
    filters.push("at >= {:since}");
    sql.push("[[at]] >= {:since}");
  }
  if (until) {
    filters.push("at < {:until}");
    sql.push("[[at]] < {:until}");
  }
  if (bounds.upto) {
    filters.push("seq <= {:upto}");
    sql.push("[[seq]] <= {:upto}");
  }
  if (bounds.after) {
    filters.push("seq > {:after}");
    sql.push("[[seq]] > {:after}");
  }
  if (person) {
    filters.push("(actor = {:person} || target = {:person})");
    sql.push("([[actor]] = {:person} OR [[target]] = {:person})");
  }
  if (action.endsWith(".")) {
    filters.push("action ~ {:prefix}");
    sql.push("[[action]] LIKE {:prefix}");
  } else if (action) {
    filters.push("action = {:action}");
    sql.push("[[action]] = {:action}");
  }
  const prefix = `${action}%`;
  const params = {
    person,
    action,
    prefix,
    since: since && new Date(since).toISOString(),
    until: until && new Date(until).toISOString(),
    upto: bounds.upto || 0,
    after: bounds.after || 0,
  };
  return { filter: filters.join(" && "), sql: sql.join(" AND "), params };
}

/**
 * The count of entries a filter selects.
 * @param {core.App} app
 * @param {{ sql: string, params: { [name: string]: string | number } }} selected
 */
function countOf(app, selected) {
  return selected.sql ? app.countRecords("audit_log", $dbx.exp(selected.sql, selected.params)) : app.countRecords("audit_log");
}

/**
 * One page of the log, newest first, filtered; with the chain's verdict. Pages are counted from an
 * entry (`upto`: the newest one when the first page was read, which each answer gives), so entries
 * written meanwhile neither repeat an entry on the next page nor push one out of reach; the answer says
 * how many have been written since (`newer`).
 * @param {core.App} app
 * @param {{ [name: string]: string }} query
 */
function auditPage(app, query) {
  const page = numberParam(query.page || "", "page", 1, 1, 100000);
  const perPage = numberParam(query.perPage || "", "perPage", 50, 1, PER_PAGE_MAX);
  if (query.upto && !/^[1-9][0-9]{0,11}$/.test(query.upto)) throw badRequest("upto must be an entry's number.");
  let upto = Number(query.upto || 0);
  if (!upto) {
    const newest = app.findRecordsByFilter("audit_log", "", "-seq", 1, 0);
    upto = newest.length > 0 ? newest[0].getInt("seq") : 0;
  }
  const selected = filterOf(query, { upto });
  const total = countOf(app, selected);
  const rows = app.findRecordsByFilter("audit_log", selected.filter, "-seq", perPage, (page - 1) * perPage, selected.params);
  const names = namer(app);
  return {
    page,
    perPage,
    totalItems: total,
    totalPages: Math.ceil(total / perPage),
    upto,
    newer: countOf(app, filterOf(query, { after: upto })),
    items: rows.map((row) => entryOf(row, names)),
    chain: $audit.verify(app),
  };
}

/**
 * A person's own entries: the latest 50 where they are the actor or the target. The address and device
 * are given for their own actions and for those of nobody in particular (failed sign-ins on their
 * account); another person's, an administrator's, are that person's data (ADR 54).
 * @param {core.App} app
 * @param {string} userId
 */
function activityOf(app, userId) {
  const rows = app.findRecordsByFilter("audit_log", "actor = {:id} || target = {:id}", "-seq", 50, 0, { id: userId });
  const names = namer(app);
  return rows.map((row) => {
    const entry = entryOf(row, names);
    const someoneElse = entry.actor !== "" && entry.actor !== userId;
    return {
      seq: entry.seq,
      at: entry.at,
      action: entry.action,
      actor_name: entry.actor_name,
      ip: someoneElse ? "" : entry.ip,
      device: someoneElse ? "" : entry.device,
      self: entry.actor === userId,
    };
  });
}

/**
 * The whole log as JSON Lines, oldest first, every field (hashes included).
 * @param {core.App} app
 */
function exportLines(app) {
  const PAGE = 1000;
  const names = namer(app);
  const lines = [];
  for (let after = 0; ;) {
    const rows = app.findRecordsByFilter("audit_log", "seq > {:after}", "seq", PAGE, 0, { after });
    for (const row of rows) lines.push(JSON.stringify(entryOf(row, names)));
    if (rows.length < PAGE) break;
    after = rows[rows.length - 1].getInt("seq");
  }
  return lines.length > 0 ? lines.join("\n") + "\n" : "";
}

module.exports = { auditPage, activityOf, exportLines };

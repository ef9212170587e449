// @ts-check
/// <reference path="../../types/hooks.d.ts" />

// What the server holds about an account, for "Export my data" (pb_hooks/account_data.pb.js,
// docs/decisions/0029-change-email-delete-export.md).

const { userReferences } = require(`${__hooks}/lib/account_data.js`);

/**
 * @param {core.Record | undefined} record
 * @param {string[]} fields
 */
function pick(record, fields) {
  /** @type {{ [name: string]: unknown }} */
  const out = {};
  if (!record) return out;
  for (const name of fields) out[name] = record.get(name);
  return out;
}

/**
 * @param {core.App} app
 * @param {string} collection
 * @param {string} filter
 * @param {string} userId
 * @param {string} [sort]
 * @param {{ [name: string]: string }} [params]
 */
const recordsOf = (app, collection, filter, userId, sort = "", params = {}) =>
  app.findRecordsByFilter(collection, filter, sort, 0, 0, { ...params, user: userId }).filter((r) => Boolean(r));

/**
 * Usernames of these users: a deleted account reads "Deleted user", an unknown id stays an id.
 * @param {core.App} app
 * @param {string[]} ids
 */
function usernames(app, ids) {
  /** @type {{ [id: string]: string }} */
  const out = {};
  for (const id of ids) {
    const profile = app.findRecordsByFilter("profiles", "id = {:id}", "", 1, 0, { id })[0];
    const deleted = profile ? 0 : app.countRecords("deleted_accounts", $dbx.hashExp({ id }));
    out[id] = profile ? profile.getString("username") : deleted ? "Deleted user" : id;
  }
  return out;
}

// Records that name the account but are another person's choice (ADR 0052): a request the account
// made (whether it still waits would tell a decline), a consent given to it, a block of it. Their
// owner's export lists them; the named account's does not.
const OTHERS_CHOICES = ["direct_requests.requester", "direct_consents.peer", "blocks.blocked"];

// Collections listed by name in the export; any other collection with a field pointing at the
// account is listed as it is stored (hidden fields left out), under "other".
const EXPORTED = [
  "channels",
  "channel_members",
  "messages",
  "file_attachments",
  "whatsapp_contacts",
  "keyring_entries",
  "read_positions",
  "key_pins",
  "key_pin_heads",
  "mls_key_packages",
  "mls_commits",
  "push_subscriptions",
  "notify_rules",
  "message_archive",
];

/**
 * Everything the server holds about the account, as stored (ciphertext stays ciphertext: the browser
 * opens it). Message contents are not included (Export chat writes a conversation's messages); their
 * count, per conversation, is.
 * @param {core.App} app
 * @param {core.Record} user
 */
function exportAccount(app, user) {
  const id = user.id;
  const profile = app.findRecordsByFilter("profiles", "id = {:id}", "", 1, 0, { id })[0];
  const memberships = recordsOf(app, "channel_members", "user = {:user}", id, "created");
  const channels = memberships.map((membership) => {
    const channel = app.findRecordById("channels", membership.getString("channel"));
    const direct = channel.getBool("direct");
    const others = direct
      ? recordsOf(app, "channel_members", "channel = {:channel} && user != {:user}", id, "created", { channel: channel.id }).map((m) =>
          m.getString("user"),
        )
      : [];
    const names = usernames(app, others);
    return {
      id: channel.id,
      name: channel.getString("name"),
      direct,
      sealed: channel.getBool("sealed"),
      created_by_you: channel.getString("created_by") === id,
      created: channel.get("created"),
      joined: membership.get("created"),
      participants: others.map((other) => names[other]),
      messages_sent: app.countRecords("messages", $dbx.hashExp({ channel: channel.id, sender: id })),
    };
  });
  const files = recordsOf(app, "file_attachments", "uploaded_by = {:user}", id);
  const pins = recordsOf(app, "key_pins", "owner = {:user}", id);
  const pinNames = usernames(
    app,
    pins.map((p) => p.getString("subject")),
  );
  const head = recordsOf(app, "key_pin_heads", "owner = {:user}", id)[0];
  const rules = recordsOf(app, "notify_rules", "owner = {:user}", id)[0];
  // The message archive (ADR 0048): ciphertext only the user's devices open; its size is what it tells.
  const archive = new DynamicModel({ entries: 0, conversations: 0, characters: 0 });
  app
    .db()
    .newQuery(
      "SELECT COUNT(*) AS entries, COUNT(DISTINCT channel) AS conversations, COALESCE(SUM(LENGTH(data)), 0) AS characters FROM message_archive WHERE owner = {:user}",
    )
    .bind({ user: id })
    .one(archive);

  /** @type {{ [collection: string]: unknown[] }} */
  const other = {};
  for (const [collection, field] of userReferences(app)) {
    if (EXPORTED.indexOf(collection) >= 0 || OTHERS_CHOICES.indexOf(`${collection}.${field}`) >= 0) continue;
    other[collection] = (other[collection] || []).concat(
      recordsOf(app, collection, `${field} ?= {:user}`, id).map((r) => r.publicExport()),
    );
  }

  return {
    account: {
      ...pick(user, ["id", "email", "pending_email", "verified", "created", "updated", "kdf_iterations"]),
      ...pick(user, ["email_notifications_enabled", "email_include_content", "encrypted_settings"]),
    },
    profile: profile ? pick(profile, ["username", "ecdh_public_key", "rsa_public_key", "created", "updated"]) : null,
    channels,
    contacts: recordsOf(app, "whatsapp_contacts", "user = {:user}", id, "created").map((c) =>
      pick(c, ["id", "name", "phone_number", "created", "updated"]),
    ),
    keyring: recordsOf(app, "keyring_entries", "user = {:user}", id).map((k) => pick(k, ["channel", "created", "updated"])),
    key_pins: pins.map((p) => ({ ...pick(p, ["subject", "data", "created", "updated"]), username: pinNames[p.getString("subject")] })),
    key_pin_head: head ? pick(head, ["counter", "updated"]) : null,
    read_positions: recordsOf(app, "read_positions", "user = {:user}", id).map((r) => pick(r, ["channel", "last_read", "updated"])),
    push_subscriptions: recordsOf(app, "push_subscriptions", "owner = {:user}", id).map((s) => pick(s, ["endpoint", "device", "created"])),
    notify_rules: rules ? rules.get("rules") : null,
    sent: {
      messages: app.countRecords("messages", $dbx.hashExp({ sender: id })),
      files: files.length,
      file_bytes: files.reduce((sum, f) => sum + f.getInt("file_size"), 0),
      mls_commits: app.countRecords("mls_commits", $dbx.hashExp({ sender: id })),
    },
    mls_key_packages: app.countRecords("mls_key_packages", $dbx.hashExp({ user: id })),
    message_archive: { entries: archive.entries, conversations: archive.conversations, characters: archive.characters },
    // which retention policy applied (ADR 0065): days per conversation, none where messages are kept forever
    retention: $retention.forUser(app, id),
    other,
  };
}

module.exports = { exportAccount };

// @ts-check
/// <reference path="../types/hooks.d.ts" />

// Security events the audit log records from PocketBase's own requests (docs/decisions/0054-audit-log.md);
// the hooks and Go routes that do the other events append theirs where they do them.

// A sign-in (password or passkey) that got its session: appended once PocketBase answered it. A sign-up
// (pb_hooks/signup.pb.js marks it) is recorded as the account's creation instead.
onRecordAuthRequest((e) => {
  const method = e.authMethod;
  e.next();
  if (method !== "password" && method !== "passkey" && method !== "sso") return;
  const { append } = require(`${__hooks}/lib/audit.js`);
  const signup = e.get("chatcrypt.signup") === true;
  try {
    append(e.app, e, {
      actor: e.record.id,
      action: signup ? "account.created" : "signin.succeeded",
      target: e.record.id,
      details: signup ? {} : { method },
    });
  } catch (err) {
    e.app.logger().warn("audit: a sign-in could not be recorded", "error", String(err));
  }
}, "users");

// Deleting a channel (its creator, through the records API) or a passkey (its owner): the deletion and
// its entry in one transaction. No channel names: the log outlives the channel.
onRecordDeleteRequest(
  (e) => {
    const { append } = require(`${__hooks}/lib/audit.js`);
    const record = e.record;
    // the superuser (in the dashboard) is no account: no actor, and the details say who
    const bySuperuser = !!e.auth && e.auth.collection().name !== "users";
    const actor = e.auth && !bySuperuser ? e.auth.id : "";
    /** @type {{ [k: string]: unknown }} */
    const by = bySuperuser ? { by_superuser: true } : {};
    e.app.runInTransaction((txApp) => {
      e.app = txApp;
      e.next();
      if (record.collection().name === "channels") {
        append(txApp, e, {
          actor,
          action: "channel.deleted",
          target: record.id,
          details: { sealed: record.getBool("sealed"), direct: record.getBool("direct"), ...by },
        });
      } else {
        append(txApp, e, { actor, action: "passkey.removed", target: record.getString("user"), details: { passkey: record.id, ...by } });
      }
    });
  },
  "channels",
  "passkeys",
);

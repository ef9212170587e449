// @ts-check
/// <reference path="../types/hooks.d.ts" />

// The sign-up answer for a taken address (docs/decisions/0082-pending-email-at-sign-up.md): a password
// sign-up keeps the typed address in "pending_email" (the "email" stays empty) until the emailed link
// attaches it, if it is still free. Several accounts may hold the same pending address, so its index
// is not unique; sign-in by address looks it up regardless of case (pb_hooks/signin.pb.js).
//
// deleted_accounts: the web app reads a deleted account's public keys only through PocketBase's own
// routes (pocketbase/profiles_known.go, history_profiles.go), which read the table directly: its list
// and view rules allow superusers only, so a signed-in account cannot list every deleted account.
migrate(
  (app) => {
    const users = app.findCollectionByNameOrId("users");
    users.fields.add(new TextField({ name: "pending_email", max: 254 }));
    users.addIndex("idx_users_pending_email", false, "`pending_email` COLLATE NOCASE", "`pending_email` != ''");
    /** @type {any} */ (users.fields.getByName("email")).required = false;
    app.save(users);

    const deleted = app.findCollectionByNameOrId("deleted_accounts");
    deleted.listRule = null;
    deleted.viewRule = null;
    app.save(deleted);
  },
  (app) => {
    const deleted = app.findCollectionByNameOrId("deleted_accounts");
    deleted.listRule = '@request.auth.id != ""';
    deleted.viewRule = '@request.auth.id != ""';
    app.save(deleted);

    const users = app.findCollectionByNameOrId("users");
    users.removeIndex("idx_users_pending_email");
    users.fields.removeByName("pending_email");
    /** @type {any} */ (users.fields.getByName("email")).required = true;
    app.save(users);
  },
);

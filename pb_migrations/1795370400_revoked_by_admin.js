// @ts-check
/// <reference path="../types/hooks.d.ts" />

// A token revoked by an administrator's "Sign out all devices" says so (pb_hooks/lib/admin_console.js),
// so the person's open pages are told an administrator signed them out, not that their session "has
// ended" (pocketbase/admin_signout.go). The collection's rules stay: nobody reads or writes it through
// the API.
migrate(
  (app) => {
    const revoked = app.findCollectionByNameOrId("revoked_tokens");
    revoked.fields.add(new BoolField({ name: "by_admin" }));
    app.save(revoked);
  },
  (app) => {
    const revoked = app.findCollectionByNameOrId("revoked_tokens");
    revoked.fields.removeByName("by_admin");
    app.save(revoked);
  },
);

// @ts-check
/// <reference path="../types/hooks.d.ts" />

// The account keeps its sessions' last activity once they end (pocketbase/last_seen.go): the admin
// console's "Last seen" of someone signed out everywhere (a leaver deactivated, "Sign out all devices").
// Hidden: no API answer carries it; the console reads it in SQL (pb_hooks/lib/admin_console.js).
migrate(
  (app) => {
    const users = app.findCollectionByNameOrId("users");
    users.fields.add(new DateField({ name: "last_seen", hidden: true }));
    app.save(users);
  },
  (app) => {
    const users = app.findCollectionByNameOrId("users");
    users.fields.removeByName("last_seen");
    app.save(users);
  },
);

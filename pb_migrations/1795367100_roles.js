// @ts-check
/// <reference path="../types/hooks.d.ts" />

// Roles (docs/decisions/0053-roles.md): every account has one of owner, admin, member or guest, kept on
// its public profile (members panels and the people picker show it; nobody can write their own: the
// profiles collection has no update rule, only hooks and the superuser change it). The oldest account
// becomes the owner, every other account a member; sign-up gives the first account "owner" and every
// later one "member" (pb_hooks/lib/roles.js).
migrate(
  (app) => {
    const profiles = app.findCollectionByNameOrId("profiles");
    profiles.fields.add(new SelectField({ name: "role", values: ["owner", "admin", "member", "guest"], maxSelect: 1 }));
    app.save(profiles);
    app.db().newQuery("UPDATE profiles SET role = 'member' WHERE role = '' OR role IS NULL").execute();
    app.db().newQuery("UPDATE profiles SET role = 'owner' WHERE id = (SELECT id FROM profiles ORDER BY created, id LIMIT 1)").execute();
  },
  (app) => {
    const profiles = app.findCollectionByNameOrId("profiles");
    profiles.fields.removeByName("role");
    app.save(profiles);
  },
);

// @ts-check
/// <reference path="../types/hooks.d.ts" />

// A deactivated person's invite links are revoked with the deactivation (pb_hooks/lib/deactivate.js;
// docs/decisions/0056-deactivation.md, addendum "a leaver's invites"). The links of people deactivated
// before are revoked here, and single sign-on links the provider had refused for someone an
// administrator has reactivated since are usable again.
migrate(
  (app) => {
    app
      .db()
      .newQuery(
        "UPDATE invites SET revoked_at = strftime('%Y-%m-%d %H:%M:%fZ', 'now') WHERE revoked_at = '' AND created_by IN (SELECT id FROM profiles WHERE deactivated = TRUE)",
      )
      .execute();
    app
      .db()
      .newQuery("UPDATE sso_links SET gone = '' WHERE gone != '' AND user IN (SELECT id FROM profiles WHERE deactivated = FALSE)")
      .execute();
  },
  () => {
    // (the invites stay revoked: which were revoked here is not kept)
  },
);

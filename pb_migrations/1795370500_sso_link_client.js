// @ts-check
/// <reference path="../types/hooks.d.ts" />

// Each single sign-on link keeps the client its refresh token was issued to (pb_hooks/lib/sso_leavers.js):
// a workspace that moves to another client of its provider is refused the old tokens, which says
// nothing about the people. Links made before keep it empty until their next refresh succeeds.
migrate(
  (app) => {
    const links = app.findCollectionByNameOrId("sso_links");
    links.fields.add(new TextField({ name: "client_id", max: 500 }));
    app.save(links);
  },
  (app) => {
    const links = app.findCollectionByNameOrId("sso_links");
    links.fields.removeByName("client_id");
    app.save(links);
  },
);

// @ts-check
/// <reference path="../types/hooks.d.ts" />

// Single sign-on (docs/decisions/0063-single-sign-on.md). Neither collection has an API rule: only
// the hooks (pb_hooks/sso.pb.js) read and write them.
//   sso_settings  one row, the admin console's values (each empty one falls back to the OIDC_*
//                 environment settings); the client secret is never answered back.
//   sso_links     which provider account (issuer, subject) is which ChatCrypt account, with the last
//                 refresh token the provider gave, to ask it whether the account still exists, and when
//                 it said it does not ("gone": docs/decisions/0064-leavers-follow-the-provider.md).
migrate(
  (app) => {
    const settings = new Collection(
      /** @type {any} */ (
        /** @satisfies {CollectionData} */ ({
          type: "base",
          name: "sso_settings",
          listRule: null,
          viewRule: null,
          createRule: null,
          updateRule: null,
          deleteRule: null,
          fields: [
            { name: "issuer", type: "text", max: 500 },
            { name: "client_id", type: "text", max: 500 },
            { name: "client_secret", type: "text", max: 1000, hidden: true },
            { name: "name", type: "text", max: 60 },
            { name: "username_claim", type: "text", max: 100 },
            { name: "allowed_domains", type: "text", max: 2000 },
            { name: "required", type: "bool" },
            { name: "updated", type: "autodate", onCreate: true, onUpdate: true },
          ],
        })
      ),
    );
    app.save(settings);
    const users = app.findCollectionByNameOrId("users");
    const links = new Collection(
      /** @type {any} */ (
        /** @satisfies {CollectionData} */ ({
          type: "base",
          name: "sso_links",
          listRule: null,
          viewRule: null,
          createRule: null,
          updateRule: null,
          deleteRule: null,
          fields: [
            { name: "user", type: "relation", required: true, collectionId: users.id, cascadeDelete: true, maxSelect: 1 },
            { name: "issuer", type: "text", required: true, max: 500 },
            { name: "subject", type: "text", required: true, max: 255 },
            { name: "refresh_token", type: "text", max: 4000, hidden: true },
            { name: "checked", type: "date" },
            { name: "gone", type: "date" },
            { name: "created", type: "autodate", onCreate: true },
          ],
          indexes: [
            "CREATE UNIQUE INDEX idx_sso_links_subject ON sso_links (issuer, subject)",
            "CREATE UNIQUE INDEX idx_sso_links_user ON sso_links (user)",
          ],
        })
      ),
    );
    app.save(links);
  },
  (app) => {
    app.delete(app.findCollectionByNameOrId("sso_links"));
    app.delete(app.findCollectionByNameOrId("sso_settings"));
  },
);

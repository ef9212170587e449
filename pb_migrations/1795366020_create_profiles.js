// @ts-check
/// <reference path="../types/hooks.d.ts" />

// The public directory: one profile per account, with the same id as the "users" record.
// Any signed-in user can read usernames and public keys (needed to show senders and verify
// signatures). Profiles are written only by the /api/chat/signup hook; public keys never change.
migrate(
  (app) => {
    const profiles = new Collection(
      /** @type {any} */ (
        /** @satisfies {CollectionData} */ ({
          type: "base",
          name: "profiles",
          listRule: '@request.auth.id != ""',
          viewRule: '@request.auth.id != ""',
          createRule: null,
          updateRule: null,
          deleteRule: null,
          fields: [
            // the default id field (15 lowercase letters or digits) matches the users ids
            { name: "username", type: "text", required: true, min: 3, max: 32, pattern: "^[A-Za-z0-9_.-]+$" },
            { name: "ecdh_public_key", type: "text", required: true, max: 1000 },
            { name: "rsa_public_key", type: "text", required: true, max: 1000 },
            { name: "created", type: "autodate", onCreate: true, onUpdate: false },
            { name: "updated", type: "autodate", onCreate: true, onUpdate: true },
          ],
          indexes: ["CREATE UNIQUE INDEX `idx_profiles_username` ON `profiles` (`username` COLLATE NOCASE)"],
        })
      ),
    );

    app.save(profiles);
  },
  (app) => {
    app.delete(app.findCollectionByNameOrId("profiles"));
  },
);

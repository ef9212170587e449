// @ts-check
/// <reference path="../types/hooks.d.ts" />

// The account's signed-in sessions (Account > Devices, pocketbase/devices.go): one per users token
// PocketBase issued, until it expires or is signed out. The browser and system as the web server
// summarised them from the user agent ("Chrome on Linux"), first and last seen (written at most once a
// minute), and the SHA-256 of the token (hidden: the server marks the caller's own session itself).
// The owner lists them; only the server writes them.
migrate(
  (app) => {
    const users = app.findCollectionByNameOrId("users");
    const owner = '@request.auth.id != "" && user = @request.auth.id';
    const sessions = new Collection(
      /** @type {any} */ (
        /** @satisfies {CollectionData} */ ({
          type: "base",
          name: "sessions",
          listRule: owner,
          viewRule: owner,
          createRule: null,
          updateRule: null,
          deleteRule: null,
          fields: [
            { name: "user", type: "relation", required: true, collectionId: users.id, maxSelect: 1, cascadeDelete: true },
            { name: "token_hash", type: "text", required: true, min: 64, max: 64, pattern: "^[0-9a-f]{64}$", hidden: true },
            { name: "agent", type: "text", required: true, max: 48 },
            { name: "first_seen", type: "date", required: true },
            { name: "last_seen", type: "date", required: true },
            { name: "expires", type: "date", required: true },
          ],
          indexes: [
            "CREATE UNIQUE INDEX `idx_sessions_token_hash` ON `sessions` (`token_hash`)",
            "CREATE INDEX `idx_sessions_user` ON `sessions` (`user`, `last_seen`)",
            "CREATE INDEX `idx_sessions_expires` ON `sessions` (`expires`)",
          ],
        })
      ),
    );
    app.save(sessions);
  },
  (app) => {
    app.delete(app.findCollectionByNameOrId("sessions"));
  },
);

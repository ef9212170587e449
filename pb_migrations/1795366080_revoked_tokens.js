// @ts-check
/// <reference path="../types/hooks.d.ts" />

// Tokens of signed-out sessions (their SHA-256, never the token itself) until they would have
// expired: pocketbase/sessions.go treats a request carrying one as a guest. Superusers only.
migrate(
  (app) => {
    const revoked = new Collection(
      /** @type {any} */ (
        /** @satisfies {CollectionData} */ ({
          type: "base",
          name: "revoked_tokens",
          listRule: null,
          viewRule: null,
          createRule: null,
          updateRule: null,
          deleteRule: null,
          fields: [
            { name: "token_hash", type: "text", required: true, min: 64, max: 64, pattern: "^[0-9a-f]{64}$" },
            { name: "expires", type: "date", required: true },
          ],
          indexes: [
            "CREATE UNIQUE INDEX `idx_revoked_tokens_hash` ON `revoked_tokens` (`token_hash`)",
            "CREATE INDEX `idx_revoked_tokens_expires` ON `revoked_tokens` (`expires`)",
          ],
        })
      ),
    );
    app.save(revoked);
  },
  (app) => {
    app.delete(app.findCollectionByNameOrId("revoked_tokens"));
  },
);

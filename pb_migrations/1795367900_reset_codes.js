// @ts-check
/// <reference path="../types/hooks.d.ts" />

// Reset codes (docs/decisions/0062-reset-codes.md): a one-time code an administrator gives a person
// who forgot their password on a server without email; with it the person opens the same reset page a
// reset email's link opens. Only the code's SHA-256 is kept. No API rule opens the collection: the
// hooks (pb_hooks/reset_codes.pb.js) read and write it.
migrate(
  (app) => {
    const users = app.findCollectionByNameOrId("users");
    const codes = new Collection(
      /** @type {any} */ (
        /** @satisfies {CollectionData} */ ({
          type: "base",
          name: "reset_codes",
          listRule: null,
          viewRule: null,
          createRule: null,
          updateRule: null,
          deleteRule: null,
          fields: [
            { name: "user", type: "relation", required: true, collectionId: users.id, cascadeDelete: true, maxSelect: 1 },
            { name: "code_hash", type: "text", required: true, max: 64, pattern: "^[0-9a-f]{64}$" },
            { name: "issued_by", type: "text", max: 15, pattern: "^([a-z0-9]{15})?$" },
            { name: "expires", type: "date", required: true },
            { name: "created", type: "autodate", onCreate: true },
          ],
          indexes: ["CREATE UNIQUE INDEX `idx_reset_codes_user` ON `reset_codes` (`user`)"],
        })
      ),
    );
    app.save(codes);
  },
  (app) => {
    app.delete(app.findCollectionByNameOrId("reset_codes"));
  },
);

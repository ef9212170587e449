// @ts-check
/// <reference path="../types/hooks.d.ts" />

// Key pins: one record per (owner, subject) holding the identity public keys the owner's browser first
// saw for the subject (and whether the owner marked them verified), encrypted in the browser under the
// owner's keyring key. Only the owner reads or writes their pins, so every device of the owner
// compares against the same keys, and the server cannot rewrite them unnoticed.
migrate(
  (app) => {
    const users = app.findCollectionByNameOrId("users");
    const owner = '@request.auth.id != "" && owner = @request.auth.id';
    const pins = new Collection(
      /** @type {any} */ (
        /** @satisfies {CollectionData} */ ({
          type: "base",
          name: "key_pins",
          listRule: owner,
          viewRule: owner,
          createRule: owner,
          updateRule:
            owner +
            " && (@request.body.owner:isset = false || @request.body.owner = @request.auth.id)" +
            " && (@request.body.subject:isset = false || @request.body.subject = subject)",
          deleteRule: owner,
          fields: [
            { name: "owner", type: "relation", required: true, collectionId: users.id, maxSelect: 1, cascadeDelete: true },
            { name: "subject", type: "relation", required: true, collectionId: users.id, maxSelect: 1, cascadeDelete: true },
            { name: "data", type: "text", required: true, max: 4000, pattern: "^[A-Za-z0-9_-]+$" },
            { name: "created", type: "autodate", onCreate: true, onUpdate: false },
            { name: "updated", type: "autodate", onCreate: true, onUpdate: true },
          ],
          indexes: ["CREATE UNIQUE INDEX `idx_key_pins_owner_subject` ON `key_pins` (`owner`, `subject`)"],
        })
      ),
    );
    app.save(pins);
  },
  (app) => {
    app.delete(app.findCollectionByNameOrId("key_pins"));
  },
);

// @ts-check
/// <reference path="../types/hooks.d.ts" />

// Key packages handed out per conversation (docs/decisions/0046-delivery-service-checks.md): one per
// device of a member per conversation, kept so that the same claim again (a page retrying) answers
// the same packages instead of using up more of the member's one-time ones. Public MLS data; only the
// claim route (pb_hooks/mls.pb.js) reads and writes it.
migrate(
  (app) => {
    const users = app.findCollectionByNameOrId("users");
    const channels = app.findCollectionByNameOrId("channels");
    app.save(
      new Collection(
        /** @type {any} */ ({
          type: "base",
          name: "mls_key_claims",
          listRule: null,
          viewRule: null,
          createRule: null,
          updateRule: null,
          deleteRule: null,
          fields: [
            { name: "channel", type: "relation", required: true, collectionId: channels.id, maxSelect: 1, cascadeDelete: true },
            { name: "user", type: "relation", required: true, collectionId: users.id, maxSelect: 1, cascadeDelete: true },
            { name: "device", type: "text", required: true, max: 64, pattern: "^[A-Za-z0-9_-]+$" },
            { name: "data", type: "text", required: true, max: 8000, pattern: "^[A-Za-z0-9_-]+$" },
            { name: "last_resort", type: "bool" },
            { name: "created", type: "autodate", onCreate: true, onUpdate: false },
          ],
          indexes: ["CREATE UNIQUE INDEX `idx_mls_key_claims_device` ON `mls_key_claims` (`channel`, `user`, `device`)"],
        }),
      ),
    );
  },
  (app) => {
    app.delete(app.findCollectionByNameOrId("mls_key_claims"));
  },
);

// @ts-check
/// <reference path="../types/hooks.d.ts" />

// The message archive (docs/decisions/0048-message-archive.md): what a user's devices read or sent in
// sealed channels and direct conversations, one record per user and message, AES-GCM-sealed in the
// browser under the user's own vault key "archive" (the server holds ciphertext only). A new device of
// the user reads from it what MLS cannot give it (messages from before it joined).
// - Only the owner lists and views their records; only POST /api/chat/archive writes them (members of
//   the conversation, for its messages); nobody updates them.
// - A record goes with its message (deleted messages are not kept), its conversation and its owner.
migrate(
  (app) => {
    const users = app.findCollectionByNameOrId("users");
    const channels = app.findCollectionByNameOrId("channels");
    const messages = app.findCollectionByNameOrId("messages");
    const owner = '@request.auth.id != "" && owner = @request.auth.id';
    app.save(
      new Collection(
        /** @type {any} */ (
          /** @satisfies {CollectionData} */ ({
            type: "base",
            name: "message_archive",
            listRule: owner,
            viewRule: owner,
            createRule: null,
            updateRule: null,
            deleteRule: null,
            fields: [
              { name: "owner", type: "relation", required: true, collectionId: users.id, maxSelect: 1, cascadeDelete: true },
              { name: "channel", type: "relation", required: true, collectionId: channels.id, maxSelect: 1, cascadeDelete: true },
              { name: "message", type: "relation", required: true, collectionId: messages.id, maxSelect: 1, cascadeDelete: true },
              { name: "data", type: "text", required: true, max: 140000, pattern: "^[A-Za-z0-9_-]+$" },
              { name: "created", type: "autodate", onCreate: true, onUpdate: false },
            ],
            indexes: [
              "CREATE UNIQUE INDEX `idx_message_archive_owner_message` ON `message_archive` (`owner`, `message`)",
              "CREATE INDEX `idx_message_archive_owner_channel` ON `message_archive` (`owner`, `channel`, `created`)",
            ],
          })
        ),
      ),
    );
  },
  (app) => {
    app.delete(app.findCollectionByNameOrId("message_archive"));
  },
);

// @ts-check
/// <reference path="../types/hooks.d.ts" />

// Messages: ciphertext only. Members read them and post as themselves; the channel creator can
// delete them (the /api/chat/channels/{id}/clear hook deletes all of them at once).
migrate(
  (app) => {
    const users = app.findCollectionByNameOrId("users");
    const channels = app.findCollectionByNameOrId("channels");

    const member = '@request.auth.id != "" && channel.channel_members_via_channel.user ?= @request.auth.id';

    const messages = new Collection(
      /** @type {any} */ (
        /** @satisfies {CollectionData} */ ({
          type: "base",
          name: "messages",
          listRule: member,
          viewRule: member,
          createRule: member + " && sender = @request.auth.id",
          updateRule: null,
          deleteRule: '@request.auth.id != "" && channel.created_by = @request.auth.id',
          fields: [
            {
              name: "channel",
              type: "relation",
              required: true,
              collectionId: channels.id,
              maxSelect: 1,
              cascadeDelete: true,
            },
            {
              name: "sender",
              type: "relation",
              required: true,
              collectionId: users.id,
              maxSelect: 1,
              cascadeDelete: true,
            },
            { name: "encrypted_content", type: "text", required: true, max: 100000 },
            { name: "sender_public_key", type: "text", max: 1000 },
            { name: "created", type: "autodate", onCreate: true, onUpdate: false },
          ],
          indexes: ["CREATE INDEX `idx_messages_channel_created` ON `messages` (`channel`, `created`)"],
        })
      ),
    );

    app.save(messages);
  },
  (app) => {
    app.delete(app.findCollectionByNameOrId("messages"));
  },
);

// @ts-check
/// <reference path="../types/hooks.d.ts" />

// Encrypted files and audio recordings attached to a message. The file itself is ciphertext in a
// protected file field (downloads need a file token and pass the view rule); the name is
// ciphertext too. Only the message's sender can attach, in the message's own channel.
migrate(
  (app) => {
    const users = app.findCollectionByNameOrId("users");
    const channels = app.findCollectionByNameOrId("channels");
    const messages = app.findCollectionByNameOrId("messages");

    const member = '@request.auth.id != "" && channel.channel_members_via_channel.user ?= @request.auth.id';

    const attachments = new Collection(
      /** @type {any} */ (
        /** @satisfies {CollectionData} */ ({
          type: "base",
          name: "file_attachments",
          listRule: member,
          viewRule: member,
          createRule:
            member + " && uploaded_by = @request.auth.id" + " && message.sender = @request.auth.id" + " && message.channel = channel",
          updateRule: null,
          deleteRule: null,
          fields: [
            {
              name: "message",
              type: "relation",
              required: true,
              collectionId: messages.id,
              maxSelect: 1,
              cascadeDelete: true,
            },
            {
              name: "channel",
              type: "relation",
              required: true,
              collectionId: channels.id,
              maxSelect: 1,
              cascadeDelete: true,
            },
            { name: "file_name", type: "text", max: 4000 },
            { name: "file_size", type: "number", onlyInt: true, min: 0, max: 62914560 },
            { name: "file_type", type: "text", max: 200 },
            { name: "storage_path", type: "text", max: 300 },
            {
              name: "uploaded_by",
              type: "relation",
              required: true,
              collectionId: users.id,
              maxSelect: 1,
              cascadeDelete: true,
            },
            {
              name: "file",
              type: "file",
              maxSelect: 1,
              maxSize: 62914560, // 60 MiB
              mimeTypes: [],
              protected: true,
            },
            { name: "created", type: "autodate", onCreate: true, onUpdate: false },
          ],
          indexes: [
            "CREATE INDEX `idx_file_attachments_message` ON `file_attachments` (`message`)",
            "CREATE INDEX `idx_file_attachments_channel` ON `file_attachments` (`channel`)",
          ],
        })
      ),
    );

    app.save(attachments);
  },
  (app) => {
    app.delete(app.findCollectionByNameOrId("file_attachments"));
  },
);

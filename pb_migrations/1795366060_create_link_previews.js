// @ts-check
/// <reference path="../types/hooks.d.ts" />

// Link previews of a message, encrypted by the sender's browser like the message itself. Only the
// message's sender can add one, in the message's own channel.
migrate(
  (app) => {
    const channels = app.findCollectionByNameOrId("channels");
    const messages = app.findCollectionByNameOrId("messages");

    const member = '@request.auth.id != "" && channel.channel_members_via_channel.user ?= @request.auth.id';

    const previews = new Collection(
      /** @type {any} */ (
        /** @satisfies {CollectionData} */ ({
          type: "base",
          name: "link_previews",
          listRule: member,
          viewRule: member,
          createRule: member + " && message.sender = @request.auth.id" + " && message.channel = channel",
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
            { name: "url", type: "text", max: 20000 },
            { name: "title", type: "text", max: 20000 },
            { name: "description", type: "text", max: 20000 },
            { name: "image_url", type: "text", max: 20000 },
            {
              name: "image",
              type: "file",
              maxSelect: 1,
              maxSize: 2097152, // 2 MiB
              mimeTypes: [],
              protected: true,
            },
            { name: "created", type: "autodate", onCreate: true, onUpdate: false },
          ],
          indexes: [
            "CREATE INDEX `idx_link_previews_message` ON `link_previews` (`message`)",
            "CREATE INDEX `idx_link_previews_channel` ON `link_previews` (`channel`)",
          ],
        })
      ),
    );

    app.save(previews);
  },
  (app) => {
    app.delete(app.findCollectionByNameOrId("link_previews"));
  },
);

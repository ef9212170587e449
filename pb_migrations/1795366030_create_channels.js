// @ts-check
/// <reference path="../types/hooks.d.ts" />

// Channels and their members, in one migration because their rules refer to each other.
//
// A channel id is a UUID chosen by the creator's browser: the channel key is derived from the
// channel password with the id as salt, so the id must exist before the channel does.
// verifier_hash is SHA-256 (hex) of the join verifier derived from the channel password; it is
// hidden from every API response and filter and only the join hook compares it.
//
// Channels and memberships are created only by the /api/chat/channels hooks (one transaction).
// A member may leave (delete their own membership); the creator deletes the channel instead.
migrate(
  (app) => {
    const users = app.findCollectionByNameOrId("users");

    const channels = new Collection(
      /** @type {any} */ (
        /** @satisfies {CollectionData} */ ({
          type: "base",
          name: "channels",
          // rules are set below, once channel_members exists
          listRule: null,
          viewRule: null,
          createRule: null,
          updateRule: null,
          deleteRule: null,
          fields: [
            {
              name: "id",
              type: "text",
              system: true,
              primaryKey: true,
              required: true,
              min: 36,
              max: 36,
              pattern: "^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$",
              autogeneratePattern: "[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}",
            },
            { name: "name", type: "text", required: true, max: 100 },
            {
              name: "created_by",
              type: "relation",
              required: true,
              collectionId: users.id,
              maxSelect: 1,
              cascadeDelete: true,
            },
            { name: "verifier_hash", type: "text", hidden: true, required: true, max: 128 },
            { name: "kdf_iterations", type: "number", required: true, onlyInt: true, min: 100000, max: 10000000 },
            { name: "created", type: "autodate", onCreate: true, onUpdate: false },
            { name: "updated", type: "autodate", onCreate: true, onUpdate: true },
          ],
          indexes: [
            "CREATE INDEX `idx_channels_created` ON `channels` (`created`)",
            "CREATE INDEX `idx_channels_created_by` ON `channels` (`created_by`)",
          ],
        })
      ),
    );
    app.save(channels);

    const members = new Collection(
      /** @type {any} */ (
        /** @satisfies {CollectionData} */ ({
          type: "base",
          name: "channel_members",
          listRule: '@request.auth.id != "" && channel.channel_members_via_channel.user ?= @request.auth.id',
          viewRule: '@request.auth.id != "" && channel.channel_members_via_channel.user ?= @request.auth.id',
          createRule: null,
          updateRule: null,
          deleteRule: '@request.auth.id != "" && user = @request.auth.id && channel.created_by != @request.auth.id',
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
              name: "user",
              type: "relation",
              required: true,
              collectionId: users.id,
              maxSelect: 1,
              cascadeDelete: true,
            },
            { name: "ecdh_public_key", type: "text", max: 1000 },
            { name: "created", type: "autodate", onCreate: true, onUpdate: false },
          ],
          indexes: [
            "CREATE UNIQUE INDEX `idx_channel_members_channel_user` ON `channel_members` (`channel`, `user`)",
            "CREATE INDEX `idx_channel_members_user` ON `channel_members` (`user`)",
          ],
        })
      ),
    );
    app.save(members);

    const memberOnly = '@request.auth.id != "" && channel_members_via_channel.user ?= @request.auth.id';
    channels.listRule = memberOnly;
    channels.viewRule = memberOnly;
    channels.deleteRule = '@request.auth.id != "" && created_by = @request.auth.id';
    app.save(channels);
  },
  (app) => {
    app.delete(app.findCollectionByNameOrId("channel_members"));
    app.delete(app.findCollectionByNameOrId("channels"));
  },
);

// @ts-check
/// <reference path="../types/hooks.d.ts" />

// Changing a classic channel's password (docs/decisions/0060-changing-the-channel-password.md).
//   channels.key_epoch   how many times the channel's password was changed (0: never)
//   channel_key_shares   the current password, sealed by the admin who changed it to each member's
//                        identity key (ECDH) and signed by the admin: one per (channel, member), the
//                        latest epoch only. The server cannot open them.
// No API rule opens the shares: hooks read and write them (pb_hooks/channel_password.pb.js).
migrate(
  (app) => {
    const channels = app.findCollectionByNameOrId("channels");
    channels.fields.add(new NumberField({ name: "key_epoch", onlyInt: true, min: 0 }));
    app.save(channels);
    const shares = new Collection(
      /** @type {any} */ (
        /** @satisfies {CollectionData} */ ({
          type: "base",
          name: "channel_key_shares",
          listRule: null,
          viewRule: null,
          createRule: null,
          updateRule: null,
          deleteRule: null,
          fields: [
            { name: "channel", type: "relation", required: true, collectionId: channels.id, cascadeDelete: true, maxSelect: 1 },
            { name: "user", type: "text", required: true, max: 15, pattern: "^[a-z0-9]{15}$" },
            { name: "from_user", type: "text", required: true, max: 15, pattern: "^[a-z0-9]{15}$" },
            { name: "epoch", type: "number", onlyInt: true, min: 1 },
            { name: "data", type: "text", required: true, max: 8192 },
            { name: "created", type: "autodate", onCreate: true },
          ],
          indexes: [
            "CREATE UNIQUE INDEX `idx_channel_key_shares_channel_user` ON `channel_key_shares` (`channel`, `user`)",
            "CREATE INDEX `idx_channel_key_shares_user` ON `channel_key_shares` (`user`)",
          ],
        })
      ),
    );
    app.save(shares);
  },
  (app) => {
    app.delete(app.findCollectionByNameOrId("channel_key_shares"));
    const channels = app.findCollectionByNameOrId("channels");
    channels.fields.removeByName("key_epoch");
    app.save(channels);
  },
);

// @ts-check
/// <reference path="../types/hooks.d.ts" />

// The keyring: one record per (user, channel) holding that user's channel password and its PBKDF2
// count, encrypted in the user's browser under the keyring key (never readable here). Only the owner
// reads or writes it, only for a channel they are a member of; a deleted channel takes its entries
// along, and leaving a channel removes the leaver's entry (pb_hooks/keyring.pb.js).
//
// Private settings: notification keywords, the mention switch, the desktop switch, world-clock cities
// and the translation choice move into one ciphertext (`encrypted_settings`), opened only by the user's
// browser. The server keeps in clear only what it acts on: email_notifications_enabled and
// email_include_content (and the address itself). The clear columns are dropped; their values cannot
// be encrypted here, so users see the defaults once.
migrate(
  (app) => {
    const users = app.findCollectionByNameOrId("users");
    const channels = app.findCollectionByNameOrId("channels");

    const owner = '@request.auth.id != "" && user = @request.auth.id';
    const member = "channel.channel_members_via_channel.user ?= @request.auth.id";

    const keyring = new Collection(
      /** @type {any} */ (
        /** @satisfies {CollectionData} */ ({
          type: "base",
          name: "keyring_entries",
          listRule: owner,
          viewRule: owner,
          createRule: owner + " && " + member,
          updateRule:
            owner +
            " && " +
            member +
            " && (@request.body.user:isset = false || @request.body.user = @request.auth.id)" +
            " && (@request.body.channel:isset = false || @request.body.channel = channel)",
          deleteRule: owner,
          fields: [
            { name: "user", type: "relation", required: true, collectionId: users.id, maxSelect: 1, cascadeDelete: true },
            { name: "channel", type: "relation", required: true, collectionId: channels.id, maxSelect: 1, cascadeDelete: true },
            { name: "data", type: "text", required: true, max: 4000, pattern: "^[A-Za-z0-9_-]+$" },
            { name: "created", type: "autodate", onCreate: true, onUpdate: false },
            { name: "updated", type: "autodate", onCreate: true, onUpdate: true },
          ],
          indexes: ["CREATE UNIQUE INDEX `idx_keyring_user_channel` ON `keyring_entries` (`user`, `channel`)"],
        })
      ),
    );
    app.save(keyring);

    for (const name of [
      "translation_language",
      "translation_enabled",
      "desktop_notifications_enabled",
      "notify_on_mention",
      "notify_keywords",
      "world_clock_cities",
    ]) {
      users.fields.removeByName(name);
    }
    users.fields.add(new TextField({ name: "encrypted_settings", max: 16000, pattern: "^[A-Za-z0-9_-]*$" }));
    app.save(users);
  },
  (app) => {
    app.delete(app.findCollectionByNameOrId("keyring_entries"));
    const users = app.findCollectionByNameOrId("users");
    users.fields.removeByName("encrypted_settings");
    users.fields.add(new TextField({ name: "translation_language", max: 16 }));
    users.fields.add(new BoolField({ name: "translation_enabled" }));
    users.fields.add(new BoolField({ name: "desktop_notifications_enabled" }));
    users.fields.add(new BoolField({ name: "notify_on_mention" }));
    users.fields.add(new JSONField({ name: "notify_keywords", maxSize: 8000 }));
    users.fields.add(new JSONField({ name: "world_clock_cities", maxSize: 2000 }));
    app.save(users);
  },
);

// @ts-check
/// <reference path="../types/hooks.d.ts" />

// Sealed channels in the app (docs/decisions/0015-sealed-channels-mls.md): a channel is created classic
// or sealed, once and for all; a sealed channel's messages are MLS application messages, each stored
// with the epoch it was encrypted for, so that a member's page can read them epoch by epoch between
// the commits (pb_hooks/mls.pb.js refuses a message for any epoch but the group's current one).
migrate(
  (app) => {
    const channels = app.findCollectionByNameOrId("channels");
    channels.fields.add(new BoolField({ name: "sealed" }));
    app.save(channels);
    const messages = app.findCollectionByNameOrId("messages");
    messages.fields.add(new NumberField({ name: "epoch", onlyInt: true, min: 0 }));
    messages.addIndex("idx_messages_channel_epoch", false, "`channel`, `epoch`", "");
    app.save(messages);
  },
  (app) => {
    const messages = app.findCollectionByNameOrId("messages");
    messages.removeIndex("idx_messages_channel_epoch");
    messages.fields.removeByName("epoch");
    app.save(messages);
    const channels = app.findCollectionByNameOrId("channels");
    channels.fields.removeByName("sealed");
    app.save(channels);
  },
);

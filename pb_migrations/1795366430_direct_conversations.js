// @ts-check
/// <reference path="../types/hooks.d.ts" />

// Direct conversations (docs/decisions/0019-conversation-seam.md): a channel record with `direct` set,
// always sealed (MLS), with no password: its verifier hash is random, so no password join can ever
// match, and pb_hooks/lib/channels.js refuses a password join outright. A one-to-one conversation
// carries `direct_key` (the two user ids, sorted), unique, so that opening it again finds it.
// Anyone may leave a direct conversation, its creator too; nobody deletes it, removes someone else or
// deletes another's message in it for the others.
migrate(
  (app) => {
    const channels = app.findCollectionByNameOrId("channels");
    channels.fields.add(new BoolField({ name: "direct" }));
    channels.fields.add(new TextField({ name: "direct_key", max: 64, pattern: "^([a-z0-9]{15}:[a-z0-9]{15})?$" }));
    const name = /** @type {any} */ (channels.fields.getByName("name"));
    name.required = false;
    channels.addIndex("idx_channels_direct_key", true, "`direct_key`", "`direct_key` != ''");
    channels.deleteRule = '@request.auth.id != "" && created_by = @request.auth.id && direct = false';
    app.save(channels);

    const members = app.findCollectionByNameOrId("channel_members");
    members.deleteRule =
      '@request.auth.id != "" && ((user = @request.auth.id && (channel.created_by != @request.auth.id || channel.direct = true))' +
      " || (channel.created_by = @request.auth.id && user != @request.auth.id && channel.direct = false))";
    app.save(members);
    const messages = app.findCollectionByNameOrId("messages");
    messages.deleteRule =
      '@request.auth.id != "" && ((channel.created_by = @request.auth.id && channel.direct = false) || sender = @request.auth.id)';
    app.save(messages);
  },
  (app) => {
    const messages = app.findCollectionByNameOrId("messages");
    messages.deleteRule = '@request.auth.id != "" && (channel.created_by = @request.auth.id || sender = @request.auth.id)';
    app.save(messages);
    const members = app.findCollectionByNameOrId("channel_members");
    members.deleteRule =
      '@request.auth.id != "" && ((user = @request.auth.id && channel.created_by != @request.auth.id)' +
      " || (channel.created_by = @request.auth.id && user != @request.auth.id))";
    app.save(members);
    const channels = app.findCollectionByNameOrId("channels");
    channels.deleteRule = '@request.auth.id != "" && created_by = @request.auth.id';
    channels.removeIndex("idx_channels_direct_key");
    channels.fields.removeByName("direct_key");
    channels.fields.removeByName("direct");
    /** @type {any} */ (channels.fields.getByName("name")).required = true;
    app.save(channels);
  },
);

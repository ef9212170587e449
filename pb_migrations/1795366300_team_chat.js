// @ts-check
/// <reference path="../types/hooks.d.ts" />

// Edits and reactions are messages too: encrypted, signed envelopes in the same collection, marked by
// `kind` and pointing at the message they concern (`target`). The server sees that an edit or a
// reaction exists, on which message and by whom; never the new text or the emoji. An edit is accepted
// only from the original sender; both go with their message when it is deleted. Senders may delete
// their own messages (the creator may delete any, as before).
//
// The channel's creator may remove members (the removed member's keyring entry goes with the
// membership, pb_hooks/keyring.pb.js).
//
// Read positions: per user and channel, the time of the last message read. Metadata we accept so the
// unread counts follow the user across devices.
migrate(
  (app) => {
    const users = app.findCollectionByNameOrId("users");
    const channels = app.findCollectionByNameOrId("channels");
    const messages = app.findCollectionByNameOrId("messages");

    messages.fields.add(new SelectField({ name: "kind", values: ["edit", "reaction"], maxSelect: 1 }));
    messages.fields.add(new RelationField({ name: "target", collectionId: messages.id, maxSelect: 1, cascadeDelete: true }));
    const member = '@request.auth.id != "" && channel.channel_members_via_channel.user ?= @request.auth.id';
    messages.createRule =
      member +
      " && sender = @request.auth.id && (" +
      '(kind = "" && target = "")' +
      ' || (kind = "edit" && target.channel = channel && target.kind = "" && target.sender = @request.auth.id)' +
      ' || (kind = "reaction" && target.channel = channel && target.kind = "")' +
      ")";
    messages.deleteRule = '@request.auth.id != "" && (channel.created_by = @request.auth.id || sender = @request.auth.id)';
    messages.addIndex("idx_messages_channel_kind_created", false, "`channel`, `kind`, `created`", "");
    messages.addIndex("idx_messages_target", false, "`target`", "");
    app.save(messages);

    const owner = '@request.auth.id != "" && user = @request.auth.id';
    const readPositions = new Collection(
      /** @type {any} */ (
        /** @satisfies {CollectionData} */ ({
          type: "base",
          name: "read_positions",
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
            { name: "last_read", type: "text", required: true, max: 40, pattern: "^[0-9: .Z-]+$" },
            { name: "updated", type: "autodate", onCreate: true, onUpdate: true },
          ],
          indexes: ["CREATE UNIQUE INDEX `idx_read_positions_user_channel` ON `read_positions` (`user`, `channel`)"],
        })
      ),
    );
    app.save(readPositions);

    // The channel's creator may remove a member; members still leave by themselves.
    const members = app.findCollectionByNameOrId("channel_members");
    members.deleteRule =
      '@request.auth.id != "" && ((user = @request.auth.id && channel.created_by != @request.auth.id)' +
      " || (channel.created_by = @request.auth.id && user != @request.auth.id))";
    app.save(members);
  },
  (app) => {
    const members = app.findCollectionByNameOrId("channel_members");
    members.deleteRule = '@request.auth.id != "" && user = @request.auth.id && channel.created_by != @request.auth.id';
    app.save(members);
    app.delete(app.findCollectionByNameOrId("read_positions"));
    const messages = app.findCollectionByNameOrId("messages");
    messages.removeIndex("idx_messages_channel_kind_created");
    messages.removeIndex("idx_messages_target");
    messages.fields.removeByName("target");
    messages.fields.removeByName("kind");
    messages.createRule =
      '@request.auth.id != "" && channel.channel_members_via_channel.user ?= @request.auth.id && sender = @request.auth.id';
    messages.deleteRule = '@request.auth.id != "" && channel.created_by = @request.auth.id';
    app.save(messages);
  },
);

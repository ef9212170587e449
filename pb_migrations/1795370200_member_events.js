// @ts-check
/// <reference path="../types/hooks.d.ts" />

// A conversation's membership lines ("bob joined the channel", "bob left the channel", "bob was
// removed by an administrator"; docs/decisions/0098-membership-lines.md): written by PocketBase itself
// (pocketbase/member_events.go) when a membership is made or ends, so that every member's page shows
// them in the history after a reload too. They hold only what the server already knows: who, which
// conversation, when, and who added them. Members list their conversations' lines; nobody writes them
// through the API.
migrate(
  (app) => {
    const channels = app.findCollectionByNameOrId("channels");
    const users = app.findCollectionByNameOrId("users");
    const memberRule = '@request.auth.id != "" && channel.channel_members_via_channel.user ?= @request.auth.id';
    const events = new Collection(
      /** @type {any} */ (
        /** @satisfies {CollectionData} */ ({
          type: "base",
          name: "member_events",
          listRule: memberRule,
          viewRule: memberRule,
          createRule: null,
          updateRule: null,
          deleteRule: null,
          fields: [
            { name: "channel", type: "relation", required: true, collectionId: channels.id, maxSelect: 1, cascadeDelete: true },
            // (kept when the account is deleted, its names blanked: "Deleted user left the channel")
            { name: "user", type: "relation", required: true, collectionId: users.id, maxSelect: 1 },
            // the names of the time ("" once that account is deleted)
            { name: "username", type: "text", max: 100 },
            { name: "event", type: "select", required: true, values: ["joined", "left", "removed"], maxSelect: 1 },
            { name: "added_by", type: "text", max: 15 },
            { name: "added_by_name", type: "text", max: 100 },
            { name: "created", type: "autodate", onCreate: true, onUpdate: false },
          ],
          indexes: ["CREATE INDEX `idx_member_events_channel_created` ON `member_events` (`channel`, `created`)"],
        })
      ),
    );
    app.save(events);
  },
  (app) => {
    app.delete(app.findCollectionByNameOrId("member_events"));
  },
);

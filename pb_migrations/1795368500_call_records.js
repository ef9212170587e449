// @ts-check
/// <reference path="../types/hooks.d.ts" />

// A call's record in its conversation (docs/decisions/0070-call-records-from-the-server.md): written
// by PocketBase itself (pocketbase/call_records.go) when the call server's room of the conversation
// empties and closes, once per room (`room_sid` unique), whoever left last and however. It holds only
// what the call server already tells us: when the call began and ended. Members list their
// conversations' records; nobody writes them through the API.
migrate(
  (app) => {
    const channels = app.findCollectionByNameOrId("channels");
    const memberRule = '@request.auth.id != "" && channel.channel_members_via_channel.user ?= @request.auth.id';
    const records = new Collection(
      /** @type {any} */ (
        /** @satisfies {CollectionData} */ ({
          type: "base",
          name: "call_records",
          listRule: memberRule,
          viewRule: memberRule,
          createRule: null,
          updateRule: null,
          deleteRule: null,
          fields: [
            { name: "channel", type: "relation", required: true, collectionId: channels.id, maxSelect: 1, cascadeDelete: true },
            { name: "room_sid", type: "text", required: true, max: 64 },
            { name: "started", type: "date", required: true },
            // the last moment someone was in the call (kept while it goes on); empty until it ends
            { name: "seen", type: "date" },
            { name: "ended", type: "date" },
          ],
          indexes: [
            "CREATE UNIQUE INDEX `idx_call_records_room_sid` ON `call_records` (`room_sid`)",
            "CREATE INDEX `idx_call_records_channel_ended` ON `call_records` (`channel`, `ended`)",
          ],
        })
      ),
    );
    app.save(records);
  },
  (app) => {
    app.delete(app.findCollectionByNameOrId("call_records"));
  },
);

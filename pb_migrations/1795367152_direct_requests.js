// @ts-check
/// <reference path="../types/hooks.d.ts" />

// Direct messages with consent (docs/decisions/0052-direct-messages-with-consent.md):
// - direct_requests: a person added to a direct conversation by someone they share no channel with
//   (and whose DMs they have not accepted before) is not a member but has a request; only they see it.
// - direct_consents: `user` accepts DMs from `peer` (an accepted request, both ways, and the creator
//   towards everyone they add); withdrawn when `user` leaves a conversation with `peer`. Server only.
// - direct_left: `user` left direct conversation `channel`; adding them to it again is a request, even
//   from a colleague, until they accept (or start it again themselves). Server only.
// - blocks: `user` blocked `blocked`; the blocker lists their own. Only the hooks (pb_hooks/requests.pb.js,
//   pb_hooks/lib/direct.js) write these collections.
migrate(
  (app) => {
    const users = app.findCollectionByNameOrId("users");
    const channels = app.findCollectionByNameOrId("channels");
    const userField = (/** @type {string} */ name) => ({
      name,
      type: "relation",
      required: true,
      collectionId: users.id,
      maxSelect: 1,
      cascadeDelete: true,
    });
    const created = { name: "created", type: "autodate", onCreate: true, onUpdate: false };
    const collection = (/** @type {any} */ spec) =>
      app.save(new Collection({ type: "base", createRule: null, updateRule: null, deleteRule: null, ...spec }));
    collection({
      name: "direct_requests",
      listRule: '@request.auth.id != "" && user = @request.auth.id',
      viewRule: '@request.auth.id != "" && user = @request.auth.id',
      fields: [
        { name: "channel", type: "relation", required: true, collectionId: channels.id, maxSelect: 1, cascadeDelete: true },
        userField("user"),
        userField("requester"),
        created,
      ],
      indexes: [
        "CREATE UNIQUE INDEX `idx_direct_requests_channel_user` ON `direct_requests` (`channel`, `user`)",
        "CREATE INDEX `idx_direct_requests_user` ON `direct_requests` (`user`, `requester`)",
      ],
    });
    collection({
      name: "direct_consents",
      listRule: null,
      viewRule: null,
      fields: [userField("user"), userField("peer"), created],
      indexes: ["CREATE UNIQUE INDEX `idx_direct_consents_pair` ON `direct_consents` (`user`, `peer`)"],
    });
    collection({
      name: "direct_left",
      listRule: null,
      viewRule: null,
      fields: [
        { name: "channel", type: "relation", required: true, collectionId: channels.id, maxSelect: 1, cascadeDelete: true },
        userField("user"),
        created,
      ],
      indexes: ["CREATE UNIQUE INDEX `idx_direct_left_channel_user` ON `direct_left` (`channel`, `user`)"],
    });
    collection({
      name: "blocks",
      listRule: '@request.auth.id != "" && user = @request.auth.id',
      viewRule: '@request.auth.id != "" && user = @request.auth.id',
      fields: [userField("user"), userField("blocked"), created],
      indexes: ["CREATE UNIQUE INDEX `idx_blocks_pair` ON `blocks` (`user`, `blocked`)"],
    });
  },
  (app) => {
    for (const name of ["direct_requests", "direct_consents", "direct_left", "blocks"]) app.delete(app.findCollectionByNameOrId(name));
  },
);

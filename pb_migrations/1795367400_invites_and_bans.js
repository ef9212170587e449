// @ts-check
/// <reference path="../types/hooks.d.ts" />

// Invites with limits and removals that stick (docs/decisions/0057-invites-and-bans.md).
//   invites       one per link: its channel, who made it, when it expires (empty: never), how many
//                 joins it allows (0: unlimited), how many it has had, and whether it was revoked
//   channel_bans  who was removed from which channel, by whom: they cannot join it again until a
//                 channel or workspace admin lifts the ban
//   channel_members.admin  a channel admin, named by the creator or a workspace admin
// No API rule opens invites or bans: hooks read and write them (pb_hooks/lib/invites.js, bans.js).
// Removing another member goes through the removal hook (which bans); the delete rule keeps leaving.
migrate(
  (app) => {
    const users = app.findCollectionByNameOrId("users");
    const channels = app.findCollectionByNameOrId("channels");
    /** @type {{ listRule: string | null, viewRule: string | null, createRule: string | null, updateRule: string | null, deleteRule: string | null }} */
    const closed = { listRule: null, viewRule: null, createRule: null, updateRule: null, deleteRule: null };
    const invites = new Collection(
      /** @type {any} */ (
        /** @satisfies {CollectionData} */ ({
          type: "base",
          name: "invites",
          ...closed,
          fields: [
            { name: "channel", type: "relation", required: true, collectionId: channels.id, cascadeDelete: true, maxSelect: 1 },
            { name: "created_by", type: "relation", required: true, collectionId: users.id, cascadeDelete: true, maxSelect: 1 },
            { name: "expires", type: "date" },
            { name: "max_uses", type: "number", onlyInt: true, min: 0, max: 1000000 },
            { name: "uses", type: "number", onlyInt: true, min: 0 },
            { name: "revoked_at", type: "date" },
            { name: "revoked_by", type: "text", max: 15, pattern: "^([a-z0-9]{15})?$" },
            { name: "created", type: "autodate", onCreate: true },
          ],
          indexes: ["CREATE INDEX `idx_invites_channel` ON `invites` (`channel`)"],
        })
      ),
    );
    app.save(invites);

    const bans = new Collection(
      /** @type {any} */ (
        /** @satisfies {CollectionData} */ ({
          type: "base",
          name: "channel_bans",
          ...closed,
          fields: [
            { name: "channel", type: "relation", required: true, collectionId: channels.id, cascadeDelete: true, maxSelect: 1 },
            { name: "user", type: "text", required: true, max: 15, pattern: "^[a-z0-9]{15}$" },
            { name: "banned_by", type: "text", max: 15, pattern: "^([a-z0-9]{15})?$" },
            { name: "created", type: "autodate", onCreate: true },
          ],
          indexes: ["CREATE UNIQUE INDEX `idx_channel_bans_channel_user` ON `channel_bans` (`channel`, `user`)"],
        })
      ),
    );
    app.save(bans);

    const members = app.findCollectionByNameOrId("channel_members");
    members.fields.add(new BoolField({ name: "admin" }));
    members.deleteRule =
      '@request.auth.id != "" && user = @request.auth.id && (channel.created_by != @request.auth.id || channel.direct = true)';
    app.save(members);
  },
  (app) => {
    const members = app.findCollectionByNameOrId("channel_members");
    members.fields.removeByName("admin");
    members.deleteRule =
      '@request.auth.id != "" && ((user = @request.auth.id && (channel.created_by != @request.auth.id || channel.direct = true))' +
      " || (channel.created_by = @request.auth.id && user != @request.auth.id && channel.direct = false))";
    app.save(members);
    app.delete(app.findCollectionByNameOrId("channel_bans"));
    app.delete(app.findCollectionByNameOrId("invites"));
  },
);

// @ts-check
/// <reference path="../types/hooks.d.ts" />

// MLS Welcome messages (docs/decisions/0019-conversation-seam.md): a commit that adds devices from their
// claimed key packages carries a Welcome, stored with it (pb_hooks/mls.pb.js) for the added devices to
// join from. Public MLS data: only the devices whose key packages it was made for can open it. Members
// of the channel read them; only the commit route writes.
migrate(
  (app) => {
    const channels = app.findCollectionByNameOrId("channels");
    const member = "channel.channel_members_via_channel.user ?= @request.auth.id";
    app.save(
      new Collection(
        /** @type {any} */ ({
          type: "base",
          name: "mls_welcomes",
          listRule: member,
          viewRule: member,
          createRule: null,
          updateRule: null,
          deleteRule: null,
          fields: [
            { name: "channel", type: "relation", required: true, collectionId: channels.id, maxSelect: 1, cascadeDelete: true },
            { name: "epoch", type: "number", onlyInt: true, min: 0 },
            { name: "data", type: "text", required: true, max: 2000000, pattern: "^[A-Za-z0-9_-]+$" },
            { name: "created", type: "autodate", onCreate: true, onUpdate: false },
          ],
          indexes: ["CREATE INDEX `idx_mls_welcomes_channel` ON `mls_welcomes` (`channel`, `epoch`)"],
        }),
      ),
    );
  },
  (app) => {
    app.delete(app.findCollectionByNameOrId("mls_welcomes"));
  },
);

// @ts-check
/// <reference path="../types/hooks.d.ts" />

// The delivery service of sealed channels (docs/decisions/0015-sealed-channels-mls.md): what the server
// keeps so that MLS groups work through it, all of it public MLS data or ciphertext.
//   - mls_key_packages: each device's one-time key packages and one last-resort package; handed out
//     (and the one-time ones deleted) only by the claim route, in a transaction.
//   - mls_groups: per sealed channel, the current epoch and the latest GroupInfo (for external joins).
//   - mls_commits: the accepted commits, one per epoch (the unique index makes a second one impossible).
// Nothing here is written through the collection API: only the /api/chat/mls/ routes write
// (pb_hooks/mls.pb.js), members read their channel's group and commits, owners their key packages.
migrate(
  (app) => {
    const users = app.findCollectionByNameOrId("users");
    const channels = app.findCollectionByNameOrId("channels");
    const member = "channel.channel_members_via_channel.user ?= @request.auth.id";
    const base64url = "^[A-Za-z0-9_-]+$";

    /** @type {FieldData} */
    const channel = { name: "channel", type: "relation", required: true, collectionId: channels.id, maxSelect: 1, cascadeDelete: true };
    /** @type {FieldData} */
    const epoch = { name: "epoch", type: "number", onlyInt: true, min: 0 };
    /**
     * A collection members read and only the routes write.
     * @param {string} name
     * @returns {CollectionData}
     */
    const written = (name) => ({
      type: "base",
      name,
      listRule: member,
      viewRule: member,
      createRule: null,
      updateRule: null,
      deleteRule: null,
    });

    /** @param {CollectionData} data */
    const collection = (data) => new Collection(/** @type {any} */ (data));

    app.save(
      collection({
        type: "base",
        name: "mls_key_packages",
        listRule: '@request.auth.id != "" && user = @request.auth.id',
        viewRule: '@request.auth.id != "" && user = @request.auth.id',
        createRule: null,
        updateRule: null,
        deleteRule: null,
        fields: [
          { name: "user", type: "relation", required: true, collectionId: users.id, maxSelect: 1, cascadeDelete: true },
          { name: "device", type: "text", required: true, max: 64, pattern: "^[A-Za-z0-9_-]+$" },
          { name: "data", type: "text", required: true, max: 8000, pattern: base64url },
          { name: "last_resort", type: "bool" },
          { name: "created", type: "autodate", onCreate: true, onUpdate: false },
        ],
        indexes: ["CREATE INDEX `idx_mls_key_packages_user` ON `mls_key_packages` (`user`, `device`)"],
      }),
    );

    app.save(
      collection({
        ...written("mls_groups"),
        fields: [
          channel,
          epoch,
          { name: "group_info", type: "text", required: true, max: 2000000, pattern: base64url },
          { name: "updated", type: "autodate", onCreate: true, onUpdate: true },
        ],
        indexes: ["CREATE UNIQUE INDEX `idx_mls_groups_channel` ON `mls_groups` (`channel`)"],
      }),
    );

    app.save(
      collection({
        ...written("mls_commits"),
        fields: [
          channel,
          epoch,
          { name: "sender", type: "relation", required: true, collectionId: users.id, maxSelect: 1, cascadeDelete: false },
          { name: "data", type: "text", required: true, max: 2000000, pattern: base64url },
          { name: "created", type: "autodate", onCreate: true, onUpdate: false },
        ],
        indexes: ["CREATE UNIQUE INDEX `idx_mls_commits_epoch` ON `mls_commits` (`channel`, `epoch`)"],
      }),
    );
  },
  (app) => {
    for (const name of ["mls_commits", "mls_groups", "mls_key_packages"]) app.delete(app.findCollectionByNameOrId(name));
  },
);

// @ts-check
/// <reference path="../types/hooks.d.ts" />

// Threads seen on any of the user's devices (docs/decisions/0097-threads-seen-on-every-device.md): per
// user and thread root, the time of the latest reply the user saw in the thread's panel. Only the owner
// reads or writes their rows, and only for roots in conversations they are a member of; a root deleted
// takes its rows along. No content: a message id and a time.
migrate(
  (app) => {
    const users = app.findCollectionByNameOrId("users");
    const messages = app.findCollectionByNameOrId("messages");
    const owner = '@request.auth.id != "" && user = @request.auth.id';
    const member = "root.channel.channel_members_via_channel.user ?= @request.auth.id";
    const reads = new Collection(
      /** @type {any} */ (
        /** @satisfies {CollectionData} */ ({
          type: "base",
          name: "thread_reads",
          listRule: owner,
          viewRule: owner,
          createRule: owner + " && " + member + ' && root.thread = "" && root.kind = ""',
          updateRule:
            owner +
            " && " +
            member +
            " && (@request.body.user:isset = false || @request.body.user = @request.auth.id)" +
            " && (@request.body.root:isset = false || @request.body.root = root)",
          deleteRule: owner,
          fields: [
            { name: "user", type: "relation", required: true, collectionId: users.id, maxSelect: 1, cascadeDelete: true },
            { name: "root", type: "relation", required: true, collectionId: messages.id, maxSelect: 1, cascadeDelete: true },
            { name: "seen", type: "text", required: true, max: 40, pattern: "^[0-9: .Z-]+$" },
            { name: "updated", type: "autodate", onCreate: true, onUpdate: true },
          ],
          indexes: [
            "CREATE UNIQUE INDEX `idx_thread_reads_user_root` ON `thread_reads` (`user`, `root`)",
            "CREATE INDEX `idx_thread_reads_user_seen` ON `thread_reads` (`user`, `seen`)",
          ],
        })
      ),
    );
    app.save(reads);
  },
  (app) => {
    app.delete(app.findCollectionByNameOrId("thread_reads"));
  },
);

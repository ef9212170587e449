// @ts-check
/// <reference path="../types/hooks.d.ts" />

// Web Push (pocketbase/push*.go, docs/decisions/0024-web-push.md):
// - push_subscriptions: one per browser that turned notifications on (its push service's endpoint and
//   the RFC 8291 keys it gave). Its owner lists and deletes them; the server drops one its push service
//   answers 404 or 410 for.
// - notify_rules: what the server must know to decide whether to push (each conversation's level and
//   mute, the "Do not disturb" hours): one record per user, written by its owner only. Keywords stay in
//   the encrypted private settings: the server never sees them.
// - messages.mentions: the members a message mentions, named by the sender's page (the server cannot
//   read the text), so "Mentions" conversations push only for those.
migrate(
  (app) => {
    const users = app.findCollectionByNameOrId("users");
    const owner = '@request.auth.id != "" && owner = @request.auth.id';
    const subscriptions = new Collection(
      /** @type {any} */ (
        /** @satisfies {CollectionData} */ ({
          type: "base",
          name: "push_subscriptions",
          listRule: owner,
          viewRule: owner,
          createRule: owner,
          updateRule: null,
          deleteRule: owner,
          fields: [
            { name: "owner", type: "relation", required: true, collectionId: users.id, maxSelect: 1, cascadeDelete: true },
            { name: "endpoint", type: "url", required: true },
            { name: "p256dh", type: "text", required: true, min: 80, max: 100, pattern: "^[A-Za-z0-9_-]+$" },
            { name: "auth", type: "text", required: true, min: 16, max: 32, pattern: "^[A-Za-z0-9_-]+$" },
            { name: "device", type: "text", max: 200 },
            { name: "created", type: "autodate", onCreate: true },
          ],
          indexes: [
            "CREATE UNIQUE INDEX `idx_push_subscriptions_endpoint` ON `push_subscriptions` (`endpoint`)",
            "CREATE INDEX `idx_push_subscriptions_owner` ON `push_subscriptions` (`owner`)",
          ],
        })
      ),
    );
    app.save(subscriptions);

    const rules = new Collection(
      /** @type {any} */ (
        /** @satisfies {CollectionData} */ ({
          type: "base",
          name: "notify_rules",
          listRule: owner,
          viewRule: owner,
          createRule: owner,
          updateRule: owner + " && (@request.body.owner:isset = false || @request.body.owner = @request.auth.id)",
          deleteRule: owner,
          fields: [
            { name: "owner", type: "relation", required: true, collectionId: users.id, maxSelect: 1, cascadeDelete: true },
            { name: "rules", type: "json", required: true, maxSize: 65536 },
            { name: "updated", type: "autodate", onCreate: true, onUpdate: true },
          ],
          indexes: ["CREATE UNIQUE INDEX `idx_notify_rules_owner` ON `notify_rules` (`owner`)"],
        })
      ),
    );
    app.save(rules);

    const messages = app.findCollectionByNameOrId("messages");
    messages.fields.add(new JSONField({ name: "mentions", maxSize: 2000 }));
    app.save(messages);
  },
  (app) => {
    app.delete(app.findCollectionByNameOrId("push_subscriptions"));
    app.delete(app.findCollectionByNameOrId("notify_rules"));
    const messages = app.findCollectionByNameOrId("messages");
    messages.fields.removeByName("mentions");
    app.save(messages);
  },
);

// @ts-check
/// <reference path="../types/hooks.d.ts" />

// Idempotent sends: the page gives each message it sends a UUID of its own (client_id). A retry of
// the same send (after a timeout or an outage) finds the stored message instead of storing it twice:
// one client id is stored at most once per sender.
migrate(
  (app) => {
    const messages = app.findCollectionByNameOrId("messages");
    messages.fields.add(
      new TextField({
        name: "client_id",
        max: 36,
        pattern: "^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$",
      }),
    );
    messages.addIndex("idx_messages_sender_client_id", true, "`sender`, `client_id`", "`client_id` != ''");
    app.save(messages);
  },
  (app) => {
    const messages = app.findCollectionByNameOrId("messages");
    messages.removeIndex("idx_messages_sender_client_id");
    messages.fields.removeByName("client_id");
    app.save(messages);
  },
);

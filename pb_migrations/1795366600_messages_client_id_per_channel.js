// @ts-check
/// <reference path="../types/hooks.d.ts" />

// One message per conversation and client id: a call's entry ("Call, 12 min, 3 people") is posted
// under an id every member's page derives from the call (app/features/calls/entry.ts), so that two
// pages that both post it store it once (docs/decisions/0032-call-entries-and-ringing.md). A page's
// own random ids (idempotent sends) never meet another's.
migrate(
  (app) => {
    const messages = app.findCollectionByNameOrId("messages");
    messages.addIndex("idx_messages_channel_client_id", true, "`channel`, `client_id`", "`client_id` != ''");
    app.save(messages);
  },
  (app) => {
    const messages = app.findCollectionByNameOrId("messages");
    messages.removeIndex("idx_messages_channel_client_id");
    app.save(messages);
  },
);

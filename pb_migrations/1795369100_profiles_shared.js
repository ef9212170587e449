// @ts-check
/// <reference path="../types/hooks.d.ts" />

// Profiles only to those who share a channel or conversation
// (docs/decisions/0077-profiles-to-those-who-share-and-the-sign-up-answer.md). The
// collection's own rules allow only the person themself, so whatever reads it through a rule fails
// closed; PocketBase's list and view of profiles add those who share a channel with the caller by one
// indexed query (pocketbase/profiles_shared.go), and the web app reads everyone else's names through
// GET /api/chat/profiles (pocketbase/profiles_known.go), whose "sent a message to one of my channels"
// is answered by the index on (sender, channel).
migrate(
  (app) => {
    const profiles = app.findCollectionByNameOrId("profiles");
    profiles.listRule = "id = @request.auth.id";
    profiles.viewRule = "id = @request.auth.id";
    app.save(profiles);
    const messages = app.findCollectionByNameOrId("messages");
    messages.addIndex("idx_messages_sender_channel", false, "`sender`, `channel`", "");
    app.save(messages);
  },
  (app) => {
    const profiles = app.findCollectionByNameOrId("profiles");
    profiles.listRule = '@request.auth.id != ""';
    profiles.viewRule = '@request.auth.id != ""';
    app.save(profiles);
    const messages = app.findCollectionByNameOrId("messages");
    messages.removeIndex("idx_messages_sender_channel");
    app.save(messages);
  },
);

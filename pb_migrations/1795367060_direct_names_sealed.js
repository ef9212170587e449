// @ts-check
/// <reference path="../types/hooks.d.ts" />

// A group conversation's name lives inside its MLS group (docs/decisions/0050-conversation-words-and-call-ends.md):
// the server keeps only `sealed_name`, the name encrypted under a key exported from the group's epoch
// ("<epoch>.<base64url>", written by POST /api/chat/direct/name), and no direct conversation keeps a
// name in clear: the names stored before are cleared (their members' pages call them by their
// participants until someone names them again).
migrate(
  (app) => {
    const channels = app.findCollectionByNameOrId("channels");
    channels.fields.add(new TextField({ name: "sealed_name", max: 1000, pattern: "^([0-9]{1,10}\\.[A-Za-z0-9_-]+)?$" }));
    app.save(channels);
    app.db().newQuery("UPDATE channels SET name = '' WHERE direct = TRUE AND name != ''").execute();
  },
  (app) => {
    const channels = app.findCollectionByNameOrId("channels");
    channels.fields.removeByName("sealed_name");
    app.save(channels);
  },
);

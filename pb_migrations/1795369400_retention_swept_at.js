// @ts-check
/// <reference path="../types/hooks.d.ts" />

// Retention (docs/decisions/0081-a-passkey-first-and-search-after-a-sweep.md): the clock of the last
// sweep that deleted anything, on the workspace's settings row. Pages read it with the policy
// (GET /api/chat/retention) and drop from their search index and history cache what that sweep
// removed, also when their own clock is behind the server's, or when they reloaded before saving the
// index without the swept messages. Written only by pocketbase/retention.go.
migrate(
  (app) => {
    const settings = app.findCollectionByNameOrId("workspace_settings");
    settings.fields.add(new DateField({ name: "retention_swept_at" }));
    app.save(settings);
  },
  (app) => {
    const settings = app.findCollectionByNameOrId("workspace_settings");
    settings.fields.removeByName("retention_swept_at");
    app.save(settings);
  },
);

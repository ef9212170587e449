// @ts-check
/// <reference path="../types/hooks.d.ts" />

// Retention (docs/decisions/0065-retention.md): how long messages are kept. On the workspace's one
// settings row: `retention_days` (0 keeps them forever, the default), whether channel admins may set a
// shorter period for their channel (`retention_per_channel`) and whether pinned messages are kept
// (`retention_keep_pinned`). On a channel: its own `retention_days` (0: the workspace's). Both are
// written only by hooks (pb_hooks/retention.pb.js); the sweep is pocketbase/retention.go. It deletes
// archive copies by message: without an index on `message`, each batch would read the whole archive.
migrate(
  (app) => {
    const settings = app.findCollectionByNameOrId("workspace_settings");
    settings.fields.add(new NumberField({ name: "retention_days", onlyInt: true, min: 0, max: 36500 }));
    settings.fields.add(new BoolField({ name: "retention_per_channel" }));
    settings.fields.add(new BoolField({ name: "retention_keep_pinned" }));
    app.save(settings);
    const channels = app.findCollectionByNameOrId("channels");
    channels.fields.add(new NumberField({ name: "retention_days", onlyInt: true, min: 0, max: 36500 }));
    app.save(channels);
    const archive = app.findCollectionByNameOrId("message_archive");
    archive.addIndex("idx_message_archive_message", false, "`message`", "");
    app.save(archive);
  },
  (app) => {
    const archive = app.findCollectionByNameOrId("message_archive");
    archive.removeIndex("idx_message_archive_message");
    app.save(archive);
    const settings = app.findCollectionByNameOrId("workspace_settings");
    for (const name of ["retention_days", "retention_per_channel", "retention_keep_pinned"]) settings.fields.removeByName(name);
    app.save(settings);
    const channels = app.findCollectionByNameOrId("channels");
    channels.fields.removeByName("retention_days");
    app.save(channels);
  },
);

// @ts-check
/// <reference path="../types/hooks.d.ts" />

// Files people can send (docs/decisions/0071-files-a-team-sends.md): on the workspace's one settings
// row, which kinds of file the page's picker offers (`file_types`: the specification's list, that list
// with office documents and .csv, or any type; empty is the specification's) and the largest file in MB
// (`file_max_mb`: 0 is the server's own cap). Written only by pb_hooks/file_policy.pb.js.
migrate(
  (app) => {
    const settings = app.findCollectionByNameOrId("workspace_settings");
    settings.fields.add(new SelectField({ name: "file_types", values: ["standard", "office", "any"], maxSelect: 1 }));
    settings.fields.add(new NumberField({ name: "file_max_mb", onlyInt: true, min: 0, max: 59 }));
    app.save(settings);
  },
  (app) => {
    const settings = app.findCollectionByNameOrId("workspace_settings");
    for (const name of ["file_types", "file_max_mb"]) settings.fields.removeByName(name);
    app.save(settings);
  },
);

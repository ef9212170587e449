// @ts-check
/// <reference path="../types/hooks.d.ts" />

// Workspace settings (docs/decisions/0055-admin-console.md): one row, readable by every signed-in
// person (the page hides "New channel" from whoever may not create one), written only by the console's
// hook, which requires an administrator (pb_hooks/admin.pb.js). The defaults keep the specification's
// behaviour: everyone creates channels.
migrate(
  (app) => {
    const settings = new Collection(
      /** @type {any} */ (
        /** @satisfies {CollectionData} */ ({
          type: "base",
          name: "workspace_settings",
          listRule: '@request.auth.id != ""',
          viewRule: '@request.auth.id != ""',
          createRule: null,
          updateRule: null,
          deleteRule: null,
          fields: [
            { name: "who_can_create_channels", type: "select", required: true, values: ["everyone", "admins"], maxSelect: 1 },
            { name: "updated", type: "autodate", onCreate: true, onUpdate: true },
          ],
        })
      ),
    );
    app.save(settings);
    const row = new Record(settings);
    row.set("id", "workspace000001");
    row.set("who_can_create_channels", "everyone");
    app.save(row);
  },
  (app) => {
    app.delete(app.findCollectionByNameOrId("workspace_settings"));
  },
);

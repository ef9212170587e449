// @ts-check
/// <reference path="../types/hooks.d.ts" />

// A personal contact book, encrypted in the owner's browser. Only the owner sees or changes it,
// and a contact can never be created for, or moved to, another user.
migrate(
  (app) => {
    const users = app.findCollectionByNameOrId("users");

    const owner = '@request.auth.id != "" && user = @request.auth.id';

    const contacts = new Collection(
      /** @type {any} */ (
        /** @satisfies {CollectionData} */ ({
          type: "base",
          name: "whatsapp_contacts",
          listRule: owner,
          viewRule: owner,
          createRule: owner,
          updateRule: owner + " && (@request.body.user:isset = false || @request.body.user = @request.auth.id)",
          deleteRule: owner,
          fields: [
            {
              name: "user",
              type: "relation",
              required: true,
              collectionId: users.id,
              maxSelect: 1,
              cascadeDelete: true,
            },
            { name: "name", type: "text", required: true, max: 4000 },
            { name: "phone_number", type: "text", required: true, max: 4000 },
            { name: "created", type: "autodate", onCreate: true, onUpdate: false },
            { name: "updated", type: "autodate", onCreate: true, onUpdate: true },
          ],
          indexes: ["CREATE INDEX `idx_whatsapp_contacts_user` ON `whatsapp_contacts` (`user`)"],
        })
      ),
    );

    app.save(contacts);
  },
  (app) => {
    app.delete(app.findCollectionByNameOrId("whatsapp_contacts"));
  },
);

// @ts-check
/// <reference path="../types/hooks.d.ts" />

// The head of each user's key pins: one record per owner with a counter and, sealed in the browser
// under the owner's keyring key, the same counter and a digest of every pin. A device checks the pins
// it reads against it and remembers the highest counter it has seen, so a deleted, replaced or
// older pin (or head) is noticed (pb_hooks/pins.pb.js, app/features/pins/pin-head.client.ts).
//
// Pins and their head change together, only through POST /api/chat/pins: the records API no longer
// writes key_pins, and never writes key_pin_heads.
migrate(
  (app) => {
    const users = app.findCollectionByNameOrId("users");
    const owner = '@request.auth.id != "" && owner = @request.auth.id';
    const heads = new Collection(
      /** @type {any} */ (
        /** @satisfies {CollectionData} */ ({
          type: "base",
          name: "key_pin_heads",
          listRule: owner,
          viewRule: owner,
          createRule: null,
          updateRule: null,
          deleteRule: null,
          fields: [
            { name: "owner", type: "relation", required: true, collectionId: users.id, maxSelect: 1, cascadeDelete: true },
            { name: "counter", type: "number", required: true, onlyInt: true, min: 1 },
            { name: "data", type: "text", required: true, max: 250000, pattern: "^[A-Za-z0-9_-]+$" },
            { name: "updated", type: "autodate", onCreate: true, onUpdate: true },
          ],
          indexes: ["CREATE UNIQUE INDEX `idx_key_pin_heads_owner` ON `key_pin_heads` (`owner`)"],
        })
      ),
    );
    app.save(heads);

    const pins = app.findCollectionByNameOrId("key_pins");
    pins.createRule = null;
    pins.updateRule = null;
    pins.deleteRule = null;
    app.save(pins);
  },
  (app) => {
    app.delete(app.findCollectionByNameOrId("key_pin_heads"));
    const pins = app.findCollectionByNameOrId("key_pins");
    const owner = '@request.auth.id != "" && owner = @request.auth.id';
    pins.createRule = owner;
    pins.updateRule =
      owner +
      " && (@request.body.owner:isset = false || @request.body.owner = @request.auth.id)" +
      " && (@request.body.subject:isset = false || @request.body.subject = subject)";
    pins.deleteRule = owner;
    app.save(pins);
  },
);

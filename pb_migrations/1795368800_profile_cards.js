// @ts-check
/// <reference path="../types/hooks.d.ts" />

// Display names and photos (docs/decisions/0075-profile-cards.md). A person's card is encrypted in their
// browser under their own random profile key; that key is sealed to each person they share a conversation
// with, one record per reader. Only the owner writes either; a card is read by its owner and by those the
// owner sealed the key to; a sealed key is read by its owner and its one reader. The server stores
// ciphertext only.
migrate(
  (app) => {
    const users = app.findCollectionByNameOrId("users");
    const signedIn = '@request.auth.id != ""';
    /** @param {string} field */
    const keyOf = (field) =>
      /** @type {const} */ ({ name: field, type: "relation", required: true, collectionId: users.id, maxSelect: 1, cascadeDelete: true });

    const keys = new Collection(
      /** @type {any} */ (
        /** @satisfies {CollectionData} */ ({
          type: "base",
          name: "profile_card_keys",
          listRule: `${signedIn} && (owner = @request.auth.id || reader = @request.auth.id)`,
          viewRule: `${signedIn} && (owner = @request.auth.id || reader = @request.auth.id)`,
          createRule: `${signedIn} && owner = @request.auth.id`,
          updateRule:
            `${signedIn} && owner = @request.auth.id && (@request.body.owner:isset = false || @request.body.owner = @request.auth.id)` +
            " && (@request.body.reader:isset = false || @request.body.reader = reader)",
          deleteRule: `${signedIn} && owner = @request.auth.id`,
          fields: [
            keyOf("owner"),
            keyOf("reader"),
            { name: "sealed_key", type: "text", required: true, max: 400, pattern: "^[A-Za-z0-9_-]+$" },
            { name: "created", type: "autodate", onCreate: true, onUpdate: false },
            { name: "updated", type: "autodate", onCreate: true, onUpdate: true },
          ],
          indexes: [
            "CREATE UNIQUE INDEX `idx_profile_card_keys_owner_reader` ON `profile_card_keys` (`owner`, `reader`)",
            "CREATE INDEX `idx_profile_card_keys_reader` ON `profile_card_keys` (`reader`)",
          ],
        })
      ),
    );
    app.save(keys);

    const readable =
      `${signedIn} && (owner = @request.auth.id || ` +
      "(@collection.profile_card_keys.owner ?= owner && @collection.profile_card_keys.reader ?= @request.auth.id))";
    const cards = new Collection(
      /** @type {any} */ (
        /** @satisfies {CollectionData} */ ({
          type: "base",
          name: "profile_cards",
          listRule: readable,
          viewRule: readable,
          createRule: `${signedIn} && owner = @request.auth.id`,
          updateRule: `${signedIn} && owner = @request.auth.id && (@request.body.owner:isset = false || @request.body.owner = @request.auth.id)`,
          deleteRule: `${signedIn} && owner = @request.auth.id`,
          fields: [
            keyOf("owner"),
            // base64url(iv || ciphertext || tag) of the card's JSON: a 256x256 photo fits well inside
            { name: "card", type: "text", required: true, max: 200000, pattern: "^[A-Za-z0-9_-]+$" },
            { name: "created", type: "autodate", onCreate: true, onUpdate: false },
            { name: "updated", type: "autodate", onCreate: true, onUpdate: true },
          ],
          indexes: ["CREATE UNIQUE INDEX `idx_profile_cards_owner` ON `profile_cards` (`owner`)"],
        })
      ),
    );
    app.save(cards);
  },
  (app) => {
    app.delete(app.findCollectionByNameOrId("profile_cards"));
    app.delete(app.findCollectionByNameOrId("profile_card_keys"));
  },
);

// @ts-check
/// <reference path="../types/hooks.d.ts" />

// Messages kept by their sender for the other members of a direct conversation
// (docs/decisions/0099-messages-kept-for-the-others.md): an archive entry the owner's devices open with
// the owner's private key and the fresh public key at its start, not with the owner's vault key.
// Written only by POST /api/chat/archive, for messages the caller sent; the owner alone reads it.
migrate(
  (app) => {
    const archive = app.findCollectionByNameOrId("message_archive");
    archive.fields.add(new BoolField({ name: "gift" }));
    app.save(archive);
  },
  (app) => {
    const archive = app.findCollectionByNameOrId("message_archive");
    archive.fields.removeByName("gift");
    app.save(archive);
  },
);

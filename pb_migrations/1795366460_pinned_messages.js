// @ts-check
/// <reference path="../types/hooks.d.ts" />

// Pinned messages: a pin (or an unpin) is a message of kind "pin" pointing at the message it concerns,
// an encrypted, signed envelope like a reaction; whether it pins or unpins is inside, and the latest
// one per message wins. Any member may pin or unpin a message of the conversation. The server sees that
// a pin event exists, on which message, by whom and when; not whether it pinned or unpinned.
migrate(
  (app) => {
    const messages = app.findCollectionByNameOrId("messages");
    const kind = /** @type {any} */ (messages.fields.getByName("kind"));
    kind.values = ["edit", "reaction", "pin"];
    const reaction = ' || (kind = "reaction" && target.channel = channel && target.kind = "")';
    if (!String(messages.createRule).includes(reaction)) throw new Error("messages.createRule is not the one this migration extends");
    messages.createRule = String(messages.createRule).replace(
      reaction,
      reaction + ' || (kind = "pin" && target.channel = channel && target.kind = "")',
    );
    app.save(messages);
  },
  (app) => {
    const messages = app.findCollectionByNameOrId("messages");
    messages.createRule = String(messages.createRule).replace(' || (kind = "pin" && target.channel = channel && target.kind = "")', "");
    const kind = /** @type {any} */ (messages.fields.getByName("kind"));
    kind.values = ["edit", "reaction"];
    app.save(messages);
  },
);

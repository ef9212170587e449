// @ts-check
/// <reference path="../types/hooks.d.ts" />

// Threads: a reply in a thread is a message naming its root in `thread` (the server must know it to
// page a thread and count its replies; the same root is inside the signed, encrypted body, which the
// pages check). A reply that stays in its thread is of kind "reply", so the channel's pages (kind "")
// never carry it; one also sent to the channel is of kind "" with its `thread` set. A root is a
// message of the channel that is itself in no thread. Edits, reactions and pins apply to replies too.
// Deleting a root deletes its replies.
migrate(
  (app) => {
    const messages = app.findCollectionByNameOrId("messages");
    messages.fields.add(new RelationField({ name: "thread", collectionId: messages.id, maxSelect: 1, cascadeDelete: true }));
    const kind = /** @type {any} */ (messages.fields.getByName("kind"));
    kind.values = ["edit", "reaction", "pin", "reply"];
    const rule = String(messages.createRule);
    const plain = '(kind = "" && target = "")';
    if (!rule.includes(plain)) throw new Error("messages.createRule is not the one this migration extends");
    const root = 'thread.channel = channel && thread.kind = "" && thread.thread = ""';
    messages.createRule = rule
      .replace(
        plain,
        `(kind = "" && target = "" && (thread = "" || (${root})))` + ` || (kind = "reply" && target = "" && thread != "" && ${root})`,
      )
      .split('target.kind = ""')
      .join('(target.kind = "" || target.kind = "reply")');
    messages.addIndex("idx_messages_thread_created", false, "`thread`, `created`", "");
    app.save(messages);
  },
  (app) => {
    const messages = app.findCollectionByNameOrId("messages");
    messages.removeIndex("idx_messages_thread_created");
    messages.fields.removeByName("thread");
    const kind = /** @type {any} */ (messages.fields.getByName("kind"));
    kind.values = ["edit", "reaction", "pin"];
    const root = 'thread.channel = channel && thread.kind = "" && thread.thread = ""';
    messages.createRule = String(messages.createRule)
      .split('(target.kind = "" || target.kind = "reply")')
      .join('target.kind = ""')
      .replace(
        `(kind = "" && target = "" && (thread = "" || (${root})))` + ` || (kind = "reply" && target = "" && thread != "" && ${root})`,
        '(kind = "" && target = "")',
      );
    app.save(messages);
  },
);

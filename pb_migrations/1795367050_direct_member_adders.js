// @ts-check
/// <reference path="../types/hooks.d.ts" />

// Who added a participant to a direct conversation (docs/decisions/0050-conversation-words-and-call-ends.md):
// set by pb_hooks/lib/direct.js, shown to the others as "carol joined the conversation, added by alice".
// Only the hooks write memberships of direct conversations; the field is a user id, empty for the creator.
migrate(
  (app) => {
    const members = app.findCollectionByNameOrId("channel_members");
    members.fields.add(new TextField({ name: "added_by", max: 15, pattern: "^([a-z0-9]{15})?$" }));
    app.save(members);
  },
  (app) => {
    const members = app.findCollectionByNameOrId("channel_members");
    members.fields.removeByName("added_by");
    app.save(members);
  },
);

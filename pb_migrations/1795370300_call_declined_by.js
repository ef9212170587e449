// @ts-check
/// <reference path="../types/hooks.d.ts" />

// Who declined the ring of a direct conversation's call nobody answered
// (docs/decisions/0070-call-records-from-the-server.md, addendum "a declined call"): the decliner's
// conversation says "Declined call from <name>", not that they missed it, and the caller's "Call
// declined by <names>". Empty for every other call. Written by PocketBase itself
// (pocketbase/call_answers.go); the collection's rules stay: members read, nobody writes through the API.
migrate(
  (app) => {
    const records = app.findCollectionByNameOrId("call_records");
    // (a relation, as `unanswered_caller`: the account export lists it, and deleting the account clears it;
    // at most the other eleven of a group of twelve)
    const users = app.findCollectionByNameOrId("users");
    records.fields.add(new RelationField({ name: "declined_by", collectionId: users.id, maxSelect: 11, cascadeDelete: false }));
    app.save(records);
  },
  (app) => {
    const records = app.findCollectionByNameOrId("call_records");
    records.fields.removeByName("declined_by");
    app.save(records);
  },
);

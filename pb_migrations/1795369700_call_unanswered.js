// @ts-check
/// <reference path="../types/hooks.d.ts" />

// A direct conversation's call nobody answered (docs/decisions/0070-call-records-from-the-server.md,
// addendum): its record keeps who placed it, so the others' conversation says "Missed call from
// <name>" and the caller's "Call not answered". Empty for every other call: who answered or took part
// is not kept. Written by PocketBase itself (pocketbase/call_answers.go); the collection's rules stay:
// members read, nobody writes through the API.
migrate(
  (app) => {
    const records = app.findCollectionByNameOrId("call_records");
    // (a relation: the caller's account export lists it, and deleting the account clears it)
    const users = app.findCollectionByNameOrId("users");
    records.fields.add(new RelationField({ name: "unanswered_caller", collectionId: users.id, maxSelect: 1, cascadeDelete: false }));
    app.save(records);
  },
  (app) => {
    const records = app.findCollectionByNameOrId("call_records");
    records.fields.removeByName("unanswered_caller");
    app.save(records);
  },
);

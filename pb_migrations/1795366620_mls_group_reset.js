// @ts-check
/// <reference path="../types/hooks.d.ts" />

// A conversation's encryption reset by its creator (docs/decisions/0049-groups-that-recover.md): the
// channel's MLS group is replaced by a new one. mls_groups says which group is current (generation,
// counted from 0), who replaced it and when (members' pages tell the new group's messages from the
// old one's, whose epochs start again at 0). None of it is secret.
migrate(
  (app) => {
    const users = app.findCollectionByNameOrId("users");
    const groups = app.findCollectionByNameOrId("mls_groups");
    groups.fields.add(new NumberField({ name: "generation", onlyInt: true, min: 0 }));
    groups.fields.add(new RelationField({ name: "reset_by", collectionId: users.id, maxSelect: 1, cascadeDelete: false }));
    groups.fields.add(new DateField({ name: "reset_at" }));
    app.save(groups);
  },
  (app) => {
    const groups = app.findCollectionByNameOrId("mls_groups");
    for (const name of ["generation", "reset_by", "reset_at"]) groups.fields.removeByName(name);
    app.save(groups);
  },
);

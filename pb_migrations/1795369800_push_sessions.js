// @ts-check
/// <reference path="../types/hooks.d.ts" />

// A push subscription belongs to the session that saved it (docs/decisions/0024-web-push.md, addendum "a
// signed-out device gets no pushes"): `session` is set by PocketBase from the request's own session
// (pocketbase/push_sessions.go), and the subscription goes with the session, however it ends (signed
// out here or from another device, a password change, a deactivation). Subscriptions saved before
// belong to no session: they are dropped here, and each browser that still has pushes on saves its
// subscription again when it next opens ChatCrypt.
migrate(
  (app) => {
    const subscriptions = app.findCollectionByNameOrId("push_subscriptions");
    const sessions = app.findCollectionByNameOrId("sessions");
    subscriptions.fields.add(new RelationField({ name: "session", collectionId: sessions.id, maxSelect: 1, cascadeDelete: true }));
    app.save(subscriptions);
    app.db().newQuery("DELETE FROM push_subscriptions WHERE session = ''").execute();
  },
  (app) => {
    const subscriptions = app.findCollectionByNameOrId("push_subscriptions");
    subscriptions.fields.removeByName("session");
    app.save(subscriptions);
  },
);

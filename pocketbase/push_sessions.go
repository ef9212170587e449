package main

import (
	"github.com/pocketbase/dbx"
	"github.com/pocketbase/pocketbase/core"
	"github.com/pocketbase/pocketbase/tools/types"
)

// A push subscription belongs to the session that saved it (docs/decisions/0024-web-push.md, addendum
// "a signed-out device gets no pushes"). PocketBase sets its `session` from the request's own session
// (devices.go), whatever the page sent, and the subscription is deleted with the session however the
// session ends: signed out on the device or from another, a password or email change, a deactivation
// (the relation cascades), or expired (the hourly cleanup). A device signed out from elsewhere kept
// getting pushes, and its service worker showed the messages it could still open.
func registerPushSessions(app core.App) {
	app.OnRecordCreateRequest("push_subscriptions").BindFunc(func(e *core.RecordRequestEvent) error {
		hash, _ := e.Get(sessionHashKey).(string)
		session, err := e.App.FindFirstRecordByData(sessionsTable, "token_hash", hash)
		if hash == "" || err != nil {
			return e.BadRequestError("This device's session was not found. Sign in again to turn on notifications.", nil)
		}
		e.Record.Set("session", session.Id)
		return e.Next()
	})
}

// deleteExpiredPushSubscriptions removes the subscriptions of sessions that expired (the hourly
// cleanup deletes those sessions without the cascade a record deletion has).
func deleteExpiredPushSubscriptions(app core.App, now types.DateTime) error {
	_, err := app.DB().NewQuery(
		"DELETE FROM push_subscriptions WHERE session IN (SELECT id FROM " + sessionsTable + " WHERE expires < {:now})",
	).Bind(dbx.Params{"now": now.String()}).Execute()
	return err
}

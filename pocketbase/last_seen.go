package main

import (
	"github.com/pocketbase/dbx"
	"github.com/pocketbase/pocketbase/core"
	"github.com/pocketbase/pocketbase/tools/types"
)

// A person's last activity outlives their sessions (the admin console's "Last seen",
// docs/decisions/0055-admin-console.md): a session that ends (signed out on the device or from
// another, by an administrator, by a deactivation or a password change, or expired) leaves its
// last_seen on the account (users.last_seen, hidden from the API). The console showed "Never" for a
// leaver whom the deactivation had signed out everywhere.
func registerLastSeenKept(app core.App) {
	app.OnRecordAfterDeleteSuccess(sessionsTable).BindFunc(func(e *core.RecordEvent) error {
		seen := e.Record.GetDateTime("last_seen")
		if !seen.IsZero() {
			_, err := e.App.DB().NewQuery("UPDATE users SET last_seen = {:seen} WHERE id = {:user} AND last_seen < {:seen}").
				Bind(dbx.Params{"seen": seen.String(), "user": e.Record.GetString("user")}).Execute()
			if err != nil {
				e.App.Logger().Warn("a session's last activity could not be kept on its account", "error", err)
			}
		}
		return e.Next()
	})
}

// keepLastSeenOfExpired does the same for the sessions the hourly cleanup is about to delete (a
// deletion by query runs no record hooks).
func keepLastSeenOfExpired(app core.App, now types.DateTime) error {
	_, err := app.DB().NewQuery(
		"UPDATE users SET last_seen = x.seen FROM (SELECT user, MAX(last_seen) AS seen FROM " + sessionsTable +
			" WHERE expires < {:now} GROUP BY user) AS x WHERE users.id = x.user AND users.last_seen < x.seen",
	).Bind(dbx.Params{"now": now.String()}).Execute()
	return err
}

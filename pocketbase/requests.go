package main

import "github.com/pocketbase/pocketbase/core"

// registerRequestBroadcast tells a person, live, that a request to join a direct conversation came
// or went (docs/decisions/0052-direct-messages-with-consent.md): their page lists its requests
// again, as it does its channels on "memberships". Nothing of the conversation goes with it; the
// requester hears nothing (an accept reaches them as the new member's "members" event).
func registerRequestBroadcast(app core.App) {
	changed := func(e *core.RecordEvent) error {
		relay.publish("memberships", []string{e.Record.GetString("user")}, nil)
		return e.Next()
	}
	app.OnRecordAfterCreateSuccess("direct_requests").BindFunc(changed)
	app.OnRecordAfterDeleteSuccess("direct_requests").BindFunc(changed)
}

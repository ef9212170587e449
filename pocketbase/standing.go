package main

import "github.com/pocketbase/pocketbase/core"

// registerStandingBroadcast tells open pages, live, that what their user may do in the workspace
// changed (docs/decisions/0095-standing-live.md): their own role (an administrator's change in the
// console, pb_hooks/lib/roles.js), or "Who can create channels" for everyone (pb_hooks/lib/workspace.js).
// Nothing goes with the event: the page asks GET /api/account/standing, which the server answers from
// the records, so the event carries no privilege.
func registerStandingBroadcast(app core.App) {
	app.OnRecordAfterUpdateSuccess("profiles").BindFunc(func(e *core.RecordEvent) error {
		if e.Record.GetString("role") != e.Record.Original().GetString("role") {
			relay.publish("standing", []string{e.Record.Id}, nil)
		}
		return e.Next()
	})
	// (the first change writes the row, which until then was the defaults)
	app.OnRecordAfterCreateSuccess("workspace_settings").BindFunc(func(e *core.RecordEvent) error {
		relay.publishAll("standing", nil)
		return e.Next()
	})
	app.OnRecordAfterUpdateSuccess("workspace_settings").BindFunc(func(e *core.RecordEvent) error {
		if e.Record.GetString("who_can_create_channels") != e.Record.Original().GetString("who_can_create_channels") {
			relay.publishAll("standing", nil)
		}
		return e.Next()
	})
}

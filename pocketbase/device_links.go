package main

import "github.com/pocketbase/pocketbase/core"

// registerDeviceLinkBroadcast tells an account's open pages, live, that a new device asks to be
// approved, or that a request was answered or withdrawn (docs/decisions/0059-device-approval.md,
// pb_hooks/device_link.pb.js): they read the pending requests again. Nothing of the request goes
// with the event; a request for an unknown account has nobody to tell.
func registerDeviceLinkBroadcast(app core.App) {
	changed := toOwner("device-links", "user")
	app.OnRecordAfterCreateSuccess("device_links").BindFunc(changed)
	app.OnRecordAfterUpdateSuccess("device_links").BindFunc(changed)
	app.OnRecordAfterDeleteSuccess("device_links").BindFunc(changed)
}

// toOwner is a record hook that sends the live event `kind`, with nothing of the record, to the user
// the record names in `field` (none when it names nobody).
func toOwner(kind, field string) func(e *core.RecordEvent) error {
	return func(e *core.RecordEvent) error {
		if user := e.Record.GetString(field); user != "" {
			relay.publish(kind, []string{user}, nil)
		}
		return e.Next()
	}
}

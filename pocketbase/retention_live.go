package main

import "github.com/pocketbase/pocketbase/core"

// registerRetentionBroadcast tells open pages, live, that the retention policy changed
// (docs/decisions/0065-retention.md): the workspace's (an administrator's change in the console, to
// every connected user) or a channel's own period (to its members). Nothing goes with the event: the
// page reads GET /api/chat/retention again, which answers from the records, so its header says the new
// period without a reload and it drops from its search index what the new period no longer keeps.
func registerRetentionBroadcast(app core.App) {
	// (the first change writes the row, which until then was the defaults)
	app.OnRecordAfterCreateSuccess("workspace_settings").BindFunc(func(e *core.RecordEvent) error {
		relay.publishAll("retention", nil)
		return e.Next()
	})
	app.OnRecordAfterUpdateSuccess("workspace_settings").BindFunc(func(e *core.RecordEvent) error {
		if retentionChanged(e.Record, "retention_days", "retention_per_channel", "retention_keep_pinned") {
			relay.publishAll("retention", nil)
		}
		return e.Next()
	})
	app.OnRecordAfterUpdateSuccess("channels").BindFunc(func(e *core.RecordEvent) error {
		if retentionChanged(e.Record, "retention_days") && relay.listening() {
			if ids, err := channelMembers(e.App, e.Record.Id); err == nil {
				relay.publish("retention", ids, nil)
			}
		}
		return e.Next()
	})
}

// retentionChanged reports whether any of the fields differs from the record as it was before the save.
func retentionChanged(record *core.Record, fields ...string) bool {
	original := record.Original()
	for _, field := range fields {
		if record.GetString(field) != original.GetString(field) {
			return true
		}
	}
	return false
}

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

// publishExpired tells every open page of the conversation's members, whichever conversation it has
// open, which messages a sweep's batch deleted: their search index holds the messages of all their
// conversations, and each deletion's own event ("message-deleted") reaches only the pages open on it.
// The event carries the conversation's id and the messages' ids, nothing of their content.
func publishExpired(app core.App, channelID string, ids []string) {
	if len(ids) == 0 || !relay.listening() {
		return
	}
	users, serial, err := members.list(app, channelID)
	if err != nil {
		app.Logger().Warn("retention: members lookup failed", "channel", channelID, "error", err)
		return
	}
	relay.publishList("expired", channelID, serial, users, map[string]any{"channel": channelID, "ids": ids})
}

package main

import "github.com/pocketbase/pocketbase/core"

// A conversation's encryption reset (pb_hooks/mls_reset.pb.js, docs/decisions/0049-groups-that-recover.md)
// replaces its MLS group: the record's generation goes up. Every member's page is told at once
// ("group-reset" through the relay), so an open page joins the new group and shows the reset notice
// without waiting for the next message it cannot open.

type groupReset struct {
	Channel string `json:"channel"`
	User    string `json:"user"`
}

func registerGroupReset(app core.App) {
	app.OnRecordAfterUpdateSuccess("mls_groups").BindFunc(func(e *core.RecordEvent) error {
		if relay.listening() && e.Record.GetInt("generation") != e.Record.Original().GetInt("generation") {
			channelID := e.Record.GetString("channel")
			if ids, err := channelMembers(e.App, channelID); err == nil && len(ids) > 0 {
				relay.publish("group-reset", ids, groupReset{Channel: channelID, User: e.Record.GetString("reset_by")})
			}
		}
		return e.Next()
	})
}

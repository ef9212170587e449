package main

import "github.com/pocketbase/pocketbase/core"

// A commit accepted for a conversation's MLS group (pb_hooks/lib/mls.js acceptCommit) tells its
// members' pages the epoch it moved to ("epoch" through the relay): a page that knows a group
// conversation's name seals it again for the new epoch, whether or not it has the conversation open,
// so a device that joined by itself (an external commit: a participant's new device) can read it
// (docs/decisions/0050-direct-conversations-mls.md, addendum). Only the conversation and the epoch go.
type epochMoved struct {
	Channel string `json:"channel"`
	Epoch   int    `json:"epoch"`
}

func registerEpochBroadcast(app core.App) {
	app.OnRecordAfterCreateSuccess("mls_commits").BindFunc(func(e *core.RecordEvent) error {
		if relay.listening() {
			channelID := e.Record.GetString("channel")
			if ids, serial, err := members.list(e.App, channelID); err == nil {
				relay.publishList("epoch", channelID, serial, ids, epochMoved{Channel: channelID, Epoch: e.Record.GetInt("epoch") + 1})
			}
		}
		return e.Next()
	})
}

package main

import "github.com/pocketbase/pocketbase/core"

// registerArchiveBroadcast tells a user's open pages, live, that their message archive of a
// conversation grew (docs/decisions/0048-message-archive.md): one of their devices kept what it read
// there. A page that counts messages of that conversation as unreadable (sent before it joined) reads
// the archive again, so that a message read on another device later (after its sender's new keys were
// accepted there, say) appears without a reload. The event carries the conversation's id only.
func registerArchiveBroadcast(app core.App) {
	app.OnRecordAfterCreateSuccess("message_archive").BindFunc(func(e *core.RecordEvent) error {
		relay.publish("archive", []string{e.Record.GetString("owner")}, map[string]string{"channel": e.Record.GetString("channel")})
		return e.Next()
	})
}

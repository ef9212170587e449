package main

import (
	"github.com/pocketbase/dbx"
	"github.com/pocketbase/pocketbase/core"
)

// registerUnreadBroadcast tells a user's open pages, live, that their unread count in a conversation
// changed other than by a new message, so that every device shows what the server counts
// (pb_hooks/unread.pb.js): the user read the conversation on one device (their read position moved),
// or a message they had not read yet was deleted. The event carries the conversation's id only; the
// page asks GET /api/unread again.
func registerUnreadBroadcast(app core.App) {
	readMoved := func(e *core.RecordEvent) error {
		relay.publish("unread", []string{e.Record.GetString("user")}, map[string]string{"channel": e.Record.GetString("channel")})
		return e.Next()
	}
	app.OnRecordAfterCreateSuccess("read_positions").BindFunc(readMoved)
	app.OnRecordAfterUpdateSuccess("read_positions").BindFunc(readMoved)

	// (a message deleted by its sender or an admin; the retention sweep's deletions do not pass here)
	app.OnRecordAfterDeleteSuccess("messages").BindFunc(func(e *core.RecordEvent) error {
		if e.Record.GetString("kind") == "" && relay.listening() {
			channelID := e.Record.GetString("channel")
			if ids, err := unreadBy(e.App.DB(), channelID, e.Record.GetString("sender"), e.Record.GetDateTime("created").String()); err == nil {
				relay.publish("unread", ids, map[string]string{"channel": channelID})
			} else {
				e.App.Logger().Warn("unread broadcast: readers lookup failed", "channel", channelID, "error", err)
			}
		}
		return e.Next()
	})
}

// unreadBy lists the members of a channel who counted a message of sender created at created as
// unread: the same rule as GET /api/chat/unread (after the read position, or after joining).
func unreadBy(db dbx.Builder, channelID, sender, created string) ([]string, error) {
	var rows []struct {
		User string `db:"user"`
	}
	err := db.NewQuery(
		"SELECT cm.user AS user FROM channel_members cm " +
			"LEFT JOIN read_positions rp ON rp.channel = cm.channel AND rp.user = cm.user " +
			"WHERE cm.channel = {:channel} AND cm.user != {:sender} AND {:created} > COALESCE(rp.last_read, cm.created)",
	).Bind(dbx.Params{"channel": channelID, "sender": sender, "created": created}).All(&rows)
	if err != nil {
		return nil, err
	}
	ids := make([]string, len(rows))
	for i, r := range rows {
		ids[i] = r.User
	}
	return ids, nil
}

package main

import (
	"github.com/pocketbase/dbx"
	"github.com/pocketbase/pocketbase/core"
)

// threadPeople are those who take part in the thread a reply is in: who wrote its root and who wrote a
// reply in it (ADR 23: a reply in a thread someone takes part in notifies them as a mention does).
// Nil for a message that is no reply. The server knows who wrote what where, never what was written.
func threadPeople(app core.App, record *core.Record) []string {
	root := record.GetString("thread")
	if root == "" {
		return nil
	}
	var rows []struct {
		Sender string `db:"sender"`
	}
	err := app.DB().NewQuery("SELECT sender FROM messages WHERE id = {:root} AND channel = {:channel} " +
		"UNION SELECT sender FROM messages WHERE thread = {:root} AND channel = {:channel} AND (kind = '' OR kind = 'reply')").
		Bind(dbx.Params{"root": root, "channel": record.GetString("channel")}).All(&rows)
	if err != nil {
		app.Logger().Warn("thread people: lookup failed", "thread", root, "error", err)
		return nil
	}
	people := make([]string, 0, len(rows))
	for _, row := range rows {
		if row.Sender != "" {
			people = append(people, row.Sender)
		}
	}
	return people
}

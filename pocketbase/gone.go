package main

import (
	"github.com/pocketbase/dbx"
	"github.com/pocketbase/pocketbase/core"
)

// registerGoneBroadcast tells every open page of a conversation's members, whichever conversation it
// has open, that a message a member deleted is gone (with a thread's replies, which go with their first
// message): each page's search index holds the messages of all its conversations, and the deletion's
// own event ("message-deleted", broadcast.go) reaches only the pages open on that conversation
// (docs/decisions/0013-live-updates.md). Edits, reactions and pins are not in the index: their
// deletions say nothing here.
func registerGoneBroadcast(app core.App) {
	app.OnRecordDeleteRequest("messages").BindFunc(func(e *core.RecordRequestEvent) error {
		kind := e.Record.GetString("kind")
		if kind != "" && kind != "reply" {
			return e.Next()
		}
		ids := []string{e.Record.Id}
		if kind == "" {
			if replies, err := repliesOf(e.App.DB(), e.Record.Id); err == nil {
				ids = append(ids, replies...)
			}
		}
		if err := e.Next(); err != nil {
			return err
		}
		publishGone(e.App, e.Record.GetString("channel"), ids)
		return nil
	})
}

// repliesOf lists the ids of a thread's replies (which go with its first message: the relation cascades).
func repliesOf(db dbx.Builder, rootID string) ([]string, error) {
	var ids []string
	err := db.Select("id").From("messages").Where(dbx.HashExp{"thread": rootID, "kind": "reply"}).Column(&ids)
	return ids, err
}

// publishGone tells every open page of the conversation's members which of its messages are gone (a
// retention sweep's batch, retention_sweep.go, or a member's deletion): they leave the pages' search
// index. The event carries the conversation's id and the messages' ids, nothing of their content.
func publishGone(app core.App, channelID string, ids []string) {
	if len(ids) == 0 || !relay.listening() {
		return
	}
	users, serial, err := members.list(app, channelID)
	if err != nil {
		app.Logger().Warn("gone: members lookup failed", "channel", channelID, "error", err)
		return
	}
	relay.publishList("gone", channelID, serial, users, map[string]any{"channel": channelID, "ids": ids})
}

package main

import (
	"github.com/pocketbase/dbx"
	"github.com/pocketbase/pocketbase/core"
)

// registerKeysBroadcast tells the open pages of everyone who shares a conversation with a user, live,
// that the user's identity keys changed (a reset without the recovery key replaces them,
// docs/decisions/0051-reset-keys-accepted.md). The event carries the user's id only, which those
// pages already know. A page with a conversation of theirs open asks for their keys again there: its
// notice says so at once, and a list of participants the user signed with the old keys is signed
// again by that page, so the user's new device gets in without the page being opened again.
func registerKeysBroadcast(app core.App) {
	app.OnRecordAfterUpdateSuccess("profiles").BindFunc(func(e *core.RecordEvent) error {
		original := e.Record.Original()
		if !relay.listening() || (original.GetString("rsa_public_key") == e.Record.GetString("rsa_public_key") &&
			original.GetString("ecdh_public_key") == e.Record.GetString("ecdh_public_key")) {
			return e.Next()
		}
		others, err := sharingWith(e.App.DB(), e.Record.Id)
		if err != nil {
			e.App.Logger().Warn("keys broadcast: members lookup failed", "user", e.Record.Id, "error", err)
		} else if len(others) > 0 {
			relay.publish("keys", others, map[string]string{"user": e.Record.Id})
		}
		return e.Next()
	})
}

// sharingWith returns the other users who are members of a conversation the user is a member of.
func sharingWith(db dbx.Builder, userID string) ([]string, error) {
	var others []string
	err := db.NewQuery(
		"SELECT DISTINCT other.user FROM channel_members mine JOIN channel_members other ON other.channel = mine.channel " +
			"WHERE mine.user = {:user} AND other.user != {:user}",
	).Bind(dbx.Params{"user": userID}).Column(&others)
	return others, err
}

package main

import (
	"time"

	"github.com/pocketbase/dbx"
	"github.com/pocketbase/pocketbase/core"
	"github.com/pocketbase/pocketbase/tools/types"
)

// A conversation's membership lines (docs/decisions/0098-membership-lines.md): a row of member_events
// when a membership is made ("joined") or ends ("left", or "removed" for an account an administrator
// deactivated), in the membership's transaction, so that the list the members' pages ask for once
// told of the change has it. A conversation's starting members (its creator, and those a direct
// conversation starts with) get no line, nor does anyone joining a one-to-one conversation (a request
// accepted, a creator back): only its departures are news there. A line holds the names of the time; an account
// deleted leaves "Deleted user left" and its name off every line (its id stays, as on its messages).

// startingMembersWindow: a direct conversation's memberships its creator made this soon after it came
// with it (they are saved in the same transaction as the conversation).
const startingMembersWindow = 2 * time.Second

func registerMemberEvents(app core.App) {
	// (in the membership's own transaction: no write of its own to wait for, and a deactivation's or an
	// account deletion's lines see what that transaction changed before)
	app.OnRecordCreateExecute("channel_members").BindFunc(func(e *core.RecordEvent) error {
		if err := e.Next(); err != nil {
			return err
		}
		recordMemberEvent(e.App, e.Record, "joined")
		return nil
	})
	app.OnRecordDeleteExecute("channel_members").BindFunc(func(e *core.RecordEvent) error {
		if err := e.Next(); err != nil {
			return err
		}
		event := "left"
		if isDeactivated(e.App, e.Record.GetString("user")) {
			event = "removed"
		}
		recordMemberEvent(e.App, e.Record, event)
		return nil
	})
	// (a conversation deleted: its memberships' lines, written as they went, go after it)
	app.OnRecordAfterDeleteSuccess("channels").BindFunc(func(e *core.RecordEvent) error {
		_, err := e.App.DB().NewQuery("DELETE FROM {{member_events}} WHERE [[channel]] = {:channel}").
			Bind(dbx.Params{"channel": e.Record.Id}).Execute()
		if err != nil {
			e.App.Logger().Warn("member events: a deleted conversation's lines stayed", "error", err)
		}
		return e.Next()
	})
	app.OnRecordAfterDeleteSuccess("users").BindFunc(func(e *core.RecordEvent) error {
		for _, query := range []string{
			"UPDATE {{member_events}} SET [[username]] = '' WHERE [[user]] = {:user}",
			"UPDATE {{member_events}} SET [[added_by_name]] = '' WHERE [[added_by]] = {:user}",
		} {
			if _, err := e.App.DB().NewQuery(query).Bind(dbx.Params{"user": e.Record.Id}).Execute(); err != nil {
				e.App.Logger().Warn("member events: a deleted account's name stayed", "error", err)
			}
		}
		return e.Next()
	})
}

// recordMemberEvent writes the line of a membership made or ended, when it is one to show. A failure
// is logged: the membership itself has changed already.
func recordMemberEvent(app core.App, membership *core.Record, event string) {
	channel, err := app.FindRecordById("channels", membership.GetString("channel"))
	if err != nil {
		return // (the conversation itself was deleted)
	}
	userID := membership.GetString("user")
	if event == "joined" && !joinShown(channel, membership) {
		return
	}
	// (an account deleted: "Deleted user left", its id kept as on its messages, ADR 29)
	_, err = app.FindRecordById("users", userID)
	deleted := err != nil
	collection, err := app.FindCachedCollectionByNameOrId("member_events")
	if err != nil {
		return
	}
	line := core.NewRecord(collection)
	line.Set("channel", channel.Id)
	line.Set("user", userID)
	if !deleted {
		line.Set("username", usernameOf(app, userID))
	}
	line.Set("event", event)
	if adder := membership.GetString("added_by"); event == "joined" && adder != "" && adder != userID {
		line.Set("added_by", adder)
		line.Set("added_by_name", usernameOf(app, adder))
	}
	save := app.Save
	if deleted {
		save = app.SaveNoValidate // (its account is gone: the relation names a deleted id)
	}
	if err := save(line); err != nil {
		app.Logger().Warn("member events: a line was not written", "channel", channel.Id, "event", event, "error", err)
	}
}

// joinShown: whether a membership made is news to the conversation's members.
func joinShown(channel, membership *core.Record) bool {
	if channel.GetBool("direct") && channel.GetString("direct_key") != "" {
		return false
	}
	if membership.GetString("user") == channel.GetString("created_by") {
		return false
	}
	if !channel.GetBool("direct") || membership.GetString("added_by") != channel.GetString("created_by") {
		return true
	}
	return !startedWith(channel.GetDateTime("created"), membership.GetDateTime("created"))
}

func startedWith(conversation, membership types.DateTime) bool {
	return !conversation.IsZero() && membership.Time().Sub(conversation.Time()) < startingMembersWindow
}

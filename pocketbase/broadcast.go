package main

import (
	"encoding/json"

	"github.com/pocketbase/dbx"
	"github.com/pocketbase/pocketbase/apis"
	"github.com/pocketbase/pocketbase/core"
	"github.com/pocketbase/pocketbase/tools/routine"
	"github.com/pocketbase/pocketbase/tools/subscriptions"
)

// messagesTopic is the realtime topic on which members receive their channels' new and deleted
// messages (ciphertext only).
//
// PocketBase's own collection broadcast evaluates the messages list rule once per subscribed client
// for every message, which grows with the number of connected users (measured: about 0.5 ms of
// database work per client per message). Here one query finds the channel's members and the
// message goes only to realtime clients authenticated as one of them: the same rule
// ("members see their channels' messages"), enforced once per message.
const messagesTopic = "chatcrypt/messages"

const broadcastChunkSize = 250

type broadcastRecord struct {
	ID               string `json:"id"`
	Channel          string `json:"channel"`
	Sender           string `json:"sender"`
	EncryptedContent string `json:"encrypted_content"`
	Created          string `json:"created"`
	Kind             string `json:"kind,omitempty"`
	Target           string `json:"target,omitempty"`
	Thread           string `json:"thread,omitempty"`
	Epoch            int    `json:"epoch,omitempty"`
	// A reply's thread: who takes part in it (its root's and its replies' senders), so each of their
	// pages knows the reply is for them without having read the thread (thread_people.go).
	ThreadPeople []string `json:"thread_people,omitempty"`
}

type broadcastEvent struct {
	Action string          `json:"action"`
	Record broadcastRecord `json:"record"`
}

func registerMessageBroadcast(app core.App) {
	app.OnRecordAfterCreateSuccess("messages").BindFunc(func(e *core.RecordEvent) error {
		broadcastMessage(e.App, e.Record, "create")
		return e.Next()
	})
	app.OnRecordAfterDeleteSuccess("messages").BindFunc(func(e *core.RecordEvent) error {
		broadcastMessage(e.App, e.Record, "delete")
		return e.Next()
	})

	// The relay (relay.go): attachments, link previews and membership changes.
	channelScoped := func(kind string) func(e *core.RecordEvent) error {
		return func(e *core.RecordEvent) error {
			if relay.listening() {
				channelID := e.Record.GetString("channel")
				if ids, serial, err := members.list(e.App, channelID); err == nil {
					relay.publishList(kind, channelID, serial, ids, e.Record.PublicExport())
				}
			}
			return e.Next()
		}
	}
	app.OnRecordAfterCreateSuccess("file_attachments").BindFunc(channelScoped("attachment"))
	app.OnRecordAfterCreateSuccess("link_previews").BindFunc(channelScoped("preview"))

	// Memberships: a user's own new or changed membership (and, to the channel's other members, that
	// its member list changed); for a removed one, that user and the members who remain; for a
	// changed or deleted channel, its members.
	ownMembership := func(e *core.RecordEvent) error {
		userID := e.Record.GetString("user")
		relay.publish("memberships", []string{userID}, nil)
		if relay.listening() {
			channelID := e.Record.GetString("channel")
			if ids, err := channelMembers(e.App, channelID); err == nil {
				others := make([]string, 0, len(ids))
				for _, id := range ids {
					if id != userID {
						others = append(others, id)
					}
				}
				relay.publish("members", others, map[string]string{"channel": channelID})
			}
		}
		return e.Next()
	}
	app.OnRecordAfterCreateSuccess("channel_members").BindFunc(ownMembership)
	app.OnRecordAfterUpdateSuccess("channel_members").BindFunc(ownMembership)
	app.OnRecordAfterDeleteSuccess("channel_members").BindFunc(func(e *core.RecordEvent) error {
		userID, channelID := e.Record.GetString("user"), e.Record.GetString("channel")
		// (an admin's removal bans, in the same transaction: the removed person's pages say why the
		// channel went, before they read the list without it)
		if relay.listening() && banned(e.App, channelID, userID) {
			relay.publish("removed", []string{userID}, map[string]string{"channel": channelID})
		}
		recipients := []string{userID}
		if relay.listening() {
			if ids, err := channelMembers(e.App, channelID); err == nil {
				recipients = append(recipients, ids...)
			}
		}
		relay.publish("memberships", recipients, nil)
		return e.Next()
	})
	channelChanged := func(e *core.RecordEvent) error {
		if relay.listening() {
			if ids, err := channelMembers(e.App, e.Record.Id); err == nil {
				relay.publish("memberships", ids, nil)
			}
		}
		return e.Next()
	}
	app.OnRecordAfterUpdateSuccess("channels").BindFunc(channelChanged)
	app.OnRecordAfterDeleteSuccess("channels").BindFunc(channelChanged)
}

// channelMembers returns the ids of the users who are members of the channel now (members.go).
func channelMembers(app core.App, channelID string) ([]string, error) {
	return members.of(app, channelID)
}

func broadcastMessage(app core.App, record *core.Record, action string) {
	broker := app.SubscriptionsBroker()
	toClients := broker.TotalClients() > 0
	toRelay := relay.listening()
	if !toClients && !toRelay {
		return
	}
	channelID := record.GetString("channel")
	users, serial, err := members.list(app, channelID)
	if err != nil {
		app.Logger().Warn("message broadcast: members lookup failed", "channel", channelID, "error", err)
		return
	}
	if len(users) == 0 {
		return
	}

	event := broadcastEvent{Action: action}
	event.Record.ID = record.Id
	event.Record.Channel = channelID
	event.Record.Sender = record.GetString("sender")
	event.Record.Created = record.GetDateTime("created").String()
	event.Record.Kind = record.GetString("kind")
	event.Record.Target = record.GetString("target")
	event.Record.Thread = record.GetString("thread")
	event.Record.Epoch = record.GetInt("epoch")
	if action == "create" {
		event.Record.EncryptedContent = record.GetString("encrypted_content")
		event.Record.ThreadPeople = threadPeople(app, record)
	}

	if toRelay {
		kind := "message"
		if action == "delete" {
			kind = "message-deleted"
		}
		relay.publishList(kind, channelID, serial, users, event.Record)
	}
	if !toClients {
		return
	}

	memberIDs := make(map[string]struct{}, len(users))
	for _, id := range users {
		memberIDs[id] = struct{}{}
	}
	data, err := json.Marshal(event)
	if err != nil {
		return
	}
	message := subscriptions.Message{Name: messagesTopic, Data: data}

	for _, chunk := range broker.ChunkedClients(broadcastChunkSize) {
		routine.FireAndForget(func() {
			for _, client := range chunk {
				if !client.HasSubscription(messagesTopic) {
					continue
				}
				auth, _ := client.Get(apis.RealtimeClientAuthKey).(*core.Record)
				if auth == nil || auth.Collection().Name != "users" {
					continue
				}
				if _, ok := memberIDs[auth.Id]; ok {
					client.Send(message)
				}
			}
		})
	}
}

// membershipsTopic tells a user that one of their memberships ended (they left, or the channel's
// creator removed them). PocketBase's own channel_members events cannot: once the membership is
// gone, its list rule no longer lets the removed user see the record's delete event.
const membershipsTopic = "chatcrypt/memberships"

func registerMembershipBroadcast(app core.App) {
	app.OnRecordAfterDeleteSuccess("channel_members").BindFunc(func(e *core.RecordEvent) error {
		notifyMembershipEnded(e.App, e.Record.GetString("user"), e.Record.GetString("channel"))
		return e.Next()
	})
}

func notifyMembershipEnded(app core.App, userID string, channelID string) {
	broker := app.SubscriptionsBroker()
	if broker.TotalClients() == 0 || userID == "" {
		return
	}
	data, err := json.Marshal(map[string]any{"action": "delete", "record": map[string]string{"user": userID, "channel": channelID}})
	if err != nil {
		return
	}
	message := subscriptions.Message{Name: membershipsTopic, Data: data}
	for _, chunk := range broker.ChunkedClients(broadcastChunkSize) {
		routine.FireAndForget(func() {
			for _, client := range chunk {
				if !client.HasSubscription(membershipsTopic) {
					continue
				}
				auth, _ := client.Get(apis.RealtimeClientAuthKey).(*core.Record)
				if auth != nil && auth.Collection().Name == "users" && auth.Id == userID {
					client.Send(message)
				}
			}
		})
	}
}

// banned: whether the user was removed from the channel by one of its admins (pb_hooks/lib/bans.js).
func banned(app core.App, channelID, userID string) bool {
	_, err := app.FindFirstRecordByFilter("channel_bans", "channel = {:channel} && user = {:user}", dbx.Params{"channel": channelID, "user": userID})
	return err == nil
}

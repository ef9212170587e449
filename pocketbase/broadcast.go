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
}

func broadcastMessage(app core.App, record *core.Record, action string) {
	broker := app.SubscriptionsBroker()
	if broker.TotalClients() == 0 {
		return
	}
	channelID := record.GetString("channel")
	var users []string
	err := app.DB().Select("user").From("channel_members").Where(dbx.HashExp{"channel": channelID}).Column(&users)
	if err != nil {
		app.Logger().Warn("message broadcast: members lookup failed", "channel", channelID, "error", err)
		return
	}
	if len(users) == 0 {
		return
	}
	memberIDs := make(map[string]struct{}, len(users))
	for _, id := range users {
		memberIDs[id] = struct{}{}
	}

	event := broadcastEvent{Action: action}
	event.Record.ID = record.Id
	event.Record.Channel = channelID
	event.Record.Sender = record.GetString("sender")
	event.Record.Created = record.GetDateTime("created").String()
	event.Record.Kind = record.GetString("kind")
	event.Record.Target = record.GetString("target")
	if action == "create" {
		event.Record.EncryptedContent = record.GetString("encrypted_content")
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

package main

import (
	"encoding/json"
	"net/http"
	"slices"
	"time"

	"github.com/pocketbase/pocketbase/apis"
	"github.com/pocketbase/pocketbase/core"
)

// POST /api/chat/call {"channel", "event", "ring"}: a member's page joined or left the conversation's
// call, or declined its ring (docs/decisions/0032-call-entries-and-ringing.md). Every member's open page is told at once
// through the live relay (relay.go), so the "Call in progress" bar shows without waiting for a poll;
// `ring` (the page started the call, in a direct conversation) makes the others' pages ring, and a
// member with no page open gets a Web Push "<name> is calling" (push_send.go). Nothing is stored
// here: who is in a call is the call server's to say (a direct conversation's call nobody answered
// keeps who placed it in its record: call_answers.go).
const (
	callPath    = "/api/chat/call"
	callMaxBody = 1024
)

type callRecord struct {
	Channel string `json:"channel"`
	Sender  string `json:"sender"`
	Name    string `json:"name"`
	Event   string `json:"event"`
	Ring    bool   `json:"ring"`
}

func registerCalls(app core.App) {
	app.OnServe().BindFunc(func(se *core.ServeEvent) error {
		se.Router.POST(callPath, serveCall).Bind(apis.SkipSuccessActivityLog(), apis.BodyLimit(callMaxBody))
		return se.Next()
	})
}

type callBody struct {
	Channel string `json:"channel"`
	Event   string `json:"event"`
	Ring    bool   `json:"ring"`
}

func (b *callBody) channelID() string { return b.Channel }

func serveCall(e *core.RequestEvent) error {
	var body callBody
	users, serial, err := readMemberEvent(e, callMaxBody, &body, "channel and event")
	if err != nil {
		return err
	}
	// ("declined": the member's page declined the ring; their other pages stop ringing, the caller's says so)
	if body.Event != "joined" && body.Event != "left" && body.Event != "declined" {
		return e.BadRequestError(`event must be "joined", "left" or "declined".`, nil)
	}
	channel, err := e.App.FindRecordById("channels", body.Channel)
	if err != nil {
		return e.NotFoundError("Conversation not found.", nil)
	}
	// Only a direct conversation rings; in a channel the bar is enough.
	ring := body.Ring && body.Event == "joined" && channel.GetBool("direct")
	record := callRecord{Channel: body.Channel, Sender: e.Auth.Id, Name: usernameOf(e.App, e.Auth.Id), Event: body.Event, Ring: ring}
	if relay.listening() {
		relay.publishList("call", body.Channel, serial, users, record)
	}
	// (whether a direct conversation's call was answered, for its record: call_answers.go)
	if body.Event == "joined" && channel.GetBool("direct") {
		answers.joined(body.Channel, e.Auth.Id, ring, time.Now())
	}
	if body.Event == "declined" && channel.GetBool("direct") {
		answers.decline(body.Channel, e.Auth.Id)
	}
	if ring && pushes != nil {
		pushes.ring(channel, e.Auth.Id, record.Name)
	}
	return e.NoContent(http.StatusNoContent)
}

// usernameOf is the user's public username (their profile's), or "" when there is none.
func usernameOf(app core.App, userID string) string {
	if profile, err := app.FindRecordById("profiles", userID); err == nil {
		return profile.GetString("username")
	}
	return ""
}

// A member's live-event request (typing.go, calls.go): its JSON body names the conversation.
type memberEventBody interface{ channelID() string }

// readMemberEvent reads the signed-in user's JSON body (at most maxBody bytes) into body, whose
// channel must be one they are a member of; it answers the channel's members and their list's
// serial, or the error to answer with.
func readMemberEvent(e *core.RequestEvent, maxBody int64, body memberEventBody, fields string) ([]string, uint64, error) {
	if e.Auth == nil || e.Auth.Collection().Name != "users" {
		return nil, 0, e.UnauthorizedError("Not authenticated", nil)
	}
	decoder := json.NewDecoder(http.MaxBytesReader(e.Response, e.Request.Body, maxBody))
	if err := decoder.Decode(body); err != nil {
		return nil, 0, e.BadRequestError("Request body must be a JSON object with "+fields+".", nil)
	}
	if !historyChannel.MatchString(body.channelID()) {
		return nil, 0, e.BadRequestError("channel must be a channel id.", nil)
	}
	users, serial, err := members.list(e.App, body.channelID())
	if err != nil {
		return nil, 0, e.InternalServerError("", err)
	}
	if !slices.Contains(users, e.Auth.Id) {
		return nil, 0, e.ForbiddenError("You are not a member of this conversation.", nil)
	}
	return users, serial, nil
}

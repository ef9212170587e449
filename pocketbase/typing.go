package main

import (
	"net/http"
	"regexp"
	"time"

	"github.com/pocketbase/pocketbase/apis"
	"github.com/pocketbase/pocketbase/core"
)

// POST /api/chat/typing {"channel", "data"}: "someone is typing" for the other members' open pages,
// through the live relay (relay.go), never stored. `data` is what the page sealed for the
// conversation where its keys allow it (a classic channel's key; empty in MLS conversations, where
// nothing is signed for the server to carry): the server passes it on without reading it. At most one
// event per user and conversation every 2 s is carried; more are answered 204 and dropped.
const (
	typingPath     = "/api/chat/typing"
	typingInterval = 2 * time.Second
	typingMaxData  = 600
	typingMaxBody  = 2048
)

var typingData = regexp.MustCompile(`^[A-Za-z0-9_-]*$`)

type typingRecord struct {
	Channel string `json:"channel"`
	Sender  string `json:"sender"`
	Data    string `json:"data"`
}

type typingBody struct {
	Channel string `json:"channel"`
	Data    string `json:"data"`
}

func (b *typingBody) channelID() string { return b.Channel }

// one typing event per person and channel every typingInterval
var typingLimits = newOnceEvery(typingInterval)

func registerTyping(app core.App) {
	app.OnServe().BindFunc(func(se *core.ServeEvent) error {
		// not even the request log keeps who typed where (a refused request is still logged)
		se.Router.POST(typingPath, serveTyping).Bind(apis.SkipSuccessActivityLog(), apis.BodyLimit(typingMaxBody))
		return se.Next()
	})
}

func serveTyping(e *core.RequestEvent) error {
	var body typingBody
	users, serial, err := readMemberEvent(e, typingMaxBody, &body, "channel and data")
	if err != nil {
		return err
	}
	if len(body.Data) > typingMaxData || !typingData.MatchString(body.Data) {
		return e.BadRequestError("data must be sealed (base64url).", nil)
	}
	if typingLimits.pass(e.Auth.Id+" "+body.Channel, time.Now()) && relay.listening() {
		relay.publishList("typing", body.Channel, serial, users, typingRecord{Channel: body.Channel, Sender: e.Auth.Id, Data: body.Data})
	}
	return e.NoContent(http.StatusNoContent)
}

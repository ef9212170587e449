package main

import (
	"bytes"
	"encoding/base64"
	"net/http"
	"strings"
	"sync"

	"github.com/pocketbase/dbx"
	"github.com/pocketbase/pocketbase/core"
	"github.com/pocketbase/pocketbase/tools/router"
)

// Sealed channels (docs/decisions/0015-sealed-channels-mls.md): a sealed channel's message must be
// encrypted for its MLS group's current epoch, since members read a channel epoch by epoch and keep
// no keys of past epochs; a classic channel's messages carry no epoch. Checked here, in Go, before
// every message is stored (the membership rule is PocketBase's create rule, which runs after).
const (
	staleMessage    = "This message is for an earlier epoch: fetch the newer commits and encrypt it again."
	notSealed       = "This channel is not sealed."
	epochNotAllowed = "Only messages of sealed channels carry an epoch."
	mlsNotAllowed   = "This is an MLS message: a classic channel's messages are encrypted with the channel's key."
	notMLSMessage   = "A sealed conversation's message must be an MLS application message of its group at its epoch."
)

// privateMessage is what the server can read of an MLS 1.0 private message: its group, its epoch and
// the type of its encrypted content (RFC 9420 §6.3); nothing of the content itself.
type privateMessage struct {
	group       []byte
	epoch       uint64
	contentType uint8
}

// readPrivateMessage reads content (base64 or base64url) as an MLSMessage carrying a private message;
// ok is false for anything else (a classic channel's JSON envelope, random bytes, a cut message).
func readPrivateMessage(content string) (m privateMessage, ok bool) {
	content = strings.TrimRight(strings.TrimSpace(content), "=")
	data, err := base64.RawURLEncoding.DecodeString(content)
	if err != nil {
		if data, err = base64.RawStdEncoding.DecodeString(content); err != nil {
			return m, false
		}
	}
	r := &mlsReader{buf: data}
	if r.u16() != mlsVersion10 || r.u16() != wirePrivateMessage {
		return m, false
	}
	m = privateMessage{group: r.opaque(), epoch: r.u64(), contentType: r.u8()}
	r.opaque() // authenticated_data
	r.opaque() // encrypted_sender_data
	r.opaque() // ciphertext
	return m, r.done() == nil
}

// isMLSPrivateMessage: the content is an MLS 1.0 private message, which only a sealed channel's
// members can read. A classic channel's messages are JSON envelopes (app/crypto/message.ts).
func isMLSPrivateMessage(content string) bool {
	_, ok := readPrivateMessage(content)
	return ok
}

// isApplicationMessage: the content is an MLS private message carrying an application message of the
// channel's group (whose id is the channel's) at epoch. Anything else stored as a sealed channel's
// message would be counted by every member's page as a message it could not read.
func isApplicationMessage(content, channelID string, epoch uint64) bool {
	m, ok := readPrivateMessage(content)
	return ok && m.contentType == contentTypeApplication && m.epoch == epoch && bytes.Equal(m.group, []byte(channelID))
}

// Whether a channel is sealed never changes after it is created, so it is looked up once per channel.
var sealedChannels sync.Map // channel id -> bool

func isSealed(app core.App, channelID string) (sealed bool, found bool) {
	if known, ok := sealedChannels.Load(channelID); ok {
		return known.(bool), true
	}
	channel, err := app.FindRecordById("channels", channelID)
	if err != nil {
		return false, false
	}
	sealed = channel.GetBool("sealed")
	sealedChannels.Store(channelID, sealed)
	return sealed, true
}

func checkMessageEpoch(app core.App, message *core.Record) error {
	sealed, found := isSealed(app, message.GetString("channel"))
	if !found {
		return nil // the create rule answers for a channel that does not exist
	}
	epoch := message.GetInt("epoch")
	if !sealed {
		if epoch != 0 {
			return router.NewBadRequestError(epochNotAllowed, nil)
		}
		if isMLSPrivateMessage(message.GetString("encrypted_content")) {
			return router.NewBadRequestError(mlsNotAllowed, nil)
		}
		return nil
	}
	group, err := app.FindFirstRecordByFilter("mls_groups", "channel = {:channel}", dbx.Params{"channel": message.GetString("channel")})
	if err != nil {
		return router.NewNotFoundError(notSealed, nil)
	}
	if group.GetInt("epoch") != epoch {
		return router.NewApiError(http.StatusConflict, staleMessage, nil)
	}
	if !isApplicationMessage(message.GetString("encrypted_content"), message.GetString("channel"), uint64(epoch)) {
		return router.NewBadRequestError(notMLSMessage, nil)
	}
	return nil
}

func registerSealedChannels(app core.App) {
	app.OnRecordCreateRequest("messages").BindFunc(func(e *core.RecordRequestEvent) error {
		if sealed, _ := isSealed(e.App, e.Record.GetString("channel")); !sealed {
			if err := checkMessageEpoch(e.App, e.Record); err != nil {
				return err
			}
			return e.Next()
		}
		// A sealed channel's message: the epoch is read and the message stored in one write transaction,
		// so a commit (which moves the epoch in a transaction of its own) cannot be accepted between the
		// two and leave the message stored for an epoch its members have already read and left.
		return e.App.RunInTransaction(func(tx core.App) error {
			if err := checkMessageEpoch(tx, e.Record); err != nil {
				return err
			}
			e.App = tx
			return e.Next()
		})
	})
	app.OnRecordAfterDeleteSuccess("channels").BindFunc(func(e *core.RecordEvent) error {
		sealedChannels.Delete(e.Record.Id)
		return e.Next()
	})
}

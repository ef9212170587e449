package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"regexp"

	webpush "github.com/SherClockHolmes/webpush-go"
	"github.com/pocketbase/pocketbase/core"
)

// Web Push (docs/decisions/0024-web-push.md): when a message arrives for a member with no open page
// whose notification rules (push_rules.go) say it should notify, each of their browsers that turned
// notifications on gets a push through its push service: VAPID-signed (RFC 8292), the payload
// encrypted for that browser (RFC 8291) by webpush-go. The payload carries the message's ciphertext,
// never its text; the browser's service worker opens it (app/features/push/push-worker.ts).
//
// VAPID keys are made on the first start and kept in the data directory (push_vapid.json, 0600).
// Push services are reached through the guarded fetcher (safefetch.go): https only, no private
// addresses unless PUSH_ALLOW_HOSTS lists them (the tests' push service on loopback).

const (
	pushKeyPath  = "/api/chat/push/key"
	pushKeysFile = "push_vapid.json"
	maxMentions  = 50
)

var recordID = regexp.MustCompile(`^[a-z0-9]{15}$`)

type vapidKeys struct {
	Public  string `json:"publicKey"`
	Private string `json:"privateKey"`
}

// loadVAPIDKeys reads the data directory's VAPID keys, making them on the first start.
func loadVAPIDKeys(dataDir string) (vapidKeys, error) {
	file := filepath.Join(dataDir, pushKeysFile)
	var keys vapidKeys
	raw, err := os.ReadFile(file)
	if err == nil {
		if json.Unmarshal(raw, &keys) == nil && keys.Public != "" && keys.Private != "" {
			return keys, nil
		}
		return keys, fmt.Errorf("%s is not readable: move it away to make new keys (browsers then subscribe again)", file)
	}
	if !errors.Is(err, os.ErrNotExist) {
		return keys, err
	}
	keys.Private, keys.Public, err = webpush.GenerateVAPIDKeys()
	if err != nil {
		return keys, err
	}
	raw, _ = json.Marshal(keys)
	if err := os.WriteFile(file, raw, 0o600); err != nil {
		return keys, err
	}
	return keys, nil
}

func registerPush(app core.App) {
	fetcher, err := newSafeFetcher(os.Getenv("PUSH_ALLOW_HOSTS"))
	if err != nil {
		app.Logger().Error("PUSH_ALLOW_HOSTS (same form as LINK_PREVIEW_ALLOW_HOSTS)", "error", err)
		os.Exit(1)
	}
	sender := newPushSender(app, fetcher)
	sender.rules.bind(app)
	pushes = sender

	app.OnServe().BindFunc(func(se *core.ServeEvent) error {
		keys, err := loadVAPIDKeys(se.App.DataDir())
		if err != nil {
			return fmt.Errorf("web push keys: %w", err)
		}
		sender.start(keys)
		se.Router.GET(pushKeyPath, func(e *core.RequestEvent) error {
			return e.JSON(200, map[string]string{"publicKey": keys.Public})
		})
		return se.Next()
	})

	// A subscription's endpoint is where the server will send: a push service's https address.
	checkEndpoint := func(e *core.RecordRequestEvent) error {
		u, err := url.Parse(e.Record.GetString("endpoint"))
		if err != nil || (u.Scheme != "https" && !allows(fetcher.allow, mustHost(u), u.Port())) || fetcher.checkURL(u, codeInvalidURL) != nil {
			return e.BadRequestError("endpoint must be a push service's https address.", nil)
		}
		return e.Next()
	}
	app.OnRecordCreateRequest("push_subscriptions").BindFunc(checkEndpoint)

	// The members a message mentions: at most 50 user ids, named by the sender's page.
	checkMentions := func(e *core.RecordRequestEvent) error {
		raw := e.Record.GetString("mentions")
		if raw == "" || raw == "null" {
			return e.Next()
		}
		var ids []string
		if json.Unmarshal([]byte(raw), &ids) != nil || len(ids) > maxMentions {
			return e.BadRequestError("mentions must be a list of at most 50 user ids.", nil)
		}
		for _, id := range ids {
			if !recordID.MatchString(id) {
				return e.BadRequestError("mentions must be a list of at most 50 user ids.", nil)
			}
		}
		return e.Next()
	}
	app.OnRecordCreateRequest("messages").BindFunc(checkMentions)
	app.OnRecordUpdateRequest("messages").BindFunc(checkMentions)

	app.OnRecordAfterCreateSuccess("messages").BindFunc(func(e *core.RecordEvent) error {
		if kind := e.Record.GetString("kind"); kind == "" || kind == "reply" {
			sender.enqueue(e.Record)
		}
		return e.Next()
	})
}

func mustHost(u *url.URL) fetchHost {
	host, _ := parseFetchHost(u.Hostname())
	return host
}

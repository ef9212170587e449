// The relay's routes: one connection a web-server process holds, and its users (relay.go).
package main

import (
	"errors"
	"net/http"
	"time"

	"github.com/pocketbase/pocketbase/apis"
	"github.com/pocketbase/pocketbase/core"
)

func registerRelay(app core.App) {
	app.OnServe().BindFunc(func(se *core.ServeEvent) error {
		se.Router.GET(relayPath, relayConnect).Bind(apis.SkipSuccessActivityLog())
		se.Router.POST(relayUsersPath, relayUsers).Bind(apis.BodyLimit(1 << 20))
		return se.Next()
	})
	app.OnRecordAfterCreateSuccess(revokedTokensTable).BindFunc(func(e *core.RecordEvent) error {
		relay.revoke(e.Record.GetString("token_hash"))
		return e.Next()
	})
}

func relayConnect(e *core.RequestEvent) error {
	rc := http.NewResponseController(e.Response)
	// a long-lived stream: no server read or write deadline
	if err := rc.SetWriteDeadline(time.Time{}); err != nil && !errors.Is(err, http.ErrNotSupported) {
		return e.InternalServerError("Failed to open the relay.", err)
	}
	_ = rc.SetReadDeadline(time.Time{})

	c := relay.add()
	defer relay.remove(c)

	h := e.Response.Header()
	h.Set("Content-Type", "text/event-stream")
	h.Set("Cache-Control", "no-store")
	h.Set("X-Accel-Buffering", "no")
	e.Response.WriteHeader(http.StatusOK)
	if _, err := e.Response.Write([]byte("event: ready\ndata: {\"relay\":\"" + c.id + "\"}\n\n")); err != nil {
		return nil
	}
	if err := rc.Flush(); err != nil {
		return nil
	}

	ping := time.NewTicker(relayPingEvery)
	defer ping.Stop()
	ctx := e.Request.Context()
	for {
		select {
		case <-ctx.Done():
			return nil
		case <-c.done:
			return nil
		case <-ping.C:
			_ = rc.SetWriteDeadline(time.Now().Add(relayWriteTimeout))
			if _, err := e.Response.Write([]byte(": ping\n\n")); err != nil {
				return nil
			}
		case frame := <-c.queue:
			// a web process that stops reading is dropped rather than waited for
			_ = rc.SetWriteDeadline(time.Now().Add(relayWriteTimeout))
			if _, err := e.Response.Write(frame); err != nil {
				return nil
			}
			// write what else is waiting before flushing once
			for pending := len(c.queue); pending > 0; pending-- {
				if _, err := e.Response.Write(<-c.queue); err != nil {
					return nil
				}
			}
		}
		if err := rc.Flush(); err != nil {
			return nil
		}
	}
}

// relayUsers registers users on a relay connection (each by their own auth token) and unregisters
// others (by id). Answer: {"users": [...]}, for each token the id of its user, or "" when the token
// is not a valid users auth token.
func relayUsers(e *core.RequestEvent) error {
	form := new(relayUsersForm)
	if err := e.BindBody(form); err != nil {
		return e.BadRequestError("Invalid relay registration.", err)
	}
	if len(form.Add) > relayMaxPerBatch || len(form.Remove) > relayMaxPerBatch {
		return e.BadRequestError("Too many users in one relay registration.", nil)
	}
	c := relay.get(form.Relay)
	if c == nil {
		return e.NotFoundError("Unknown relay connection.", nil)
	}

	ids := make([]string, len(form.Add))
	for i, token := range form.Add {
		if token == "" {
			continue
		}
		record, err := e.App.FindAuthRecordByToken(token, core.TokenTypeAuth)
		if err != nil || record == nil || record.Collection().Name != "users" || isRevoked(e.App, token) {
			continue
		}
		ids[i] = record.Id
	}

	c.mu.Lock()
	for _, id := range form.Remove {
		c.dropUser(id)
		for hash, owner := range c.tokens {
			if owner == id {
				delete(c.tokens, hash)
			}
		}
	}
	for i, id := range ids {
		if id == "" {
			continue
		}
		hash := tokenHash(form.Add[i])
		if _, known := c.tokens[hash]; !known {
			c.tokens[hash] = id
			c.addUser(id)
		}
	}
	c.mu.Unlock()

	return e.JSON(http.StatusOK, map[string]any{"users": ids})
}

package main

import (
	"net/http"
	"regexp"
	"sort"
	"sync"
	"sync/atomic"
	"time"

	"github.com/pocketbase/dbx"
	"github.com/pocketbase/pocketbase/apis"
	"github.com/pocketbase/pocketbase/core"
	"github.com/pocketbase/pocketbase/tools/security"
	"github.com/pocketbase/pocketbase/tools/types"
)

// The account's signed-in sessions (Account > Devices): a row in "sessions" per users token that
// PocketBase issues (sign-up, sign-in, a password change, any auth), with the browser and system the
// web server summarised from the user agent ("Chrome on Linux", never the user agent itself), and
// when it was first and last seen. A token used without a row (issued before this existed) gets one
// at its first request. Only SHA-256 hashes of tokens are stored, hidden from the API.
//
//	GET  /api/chat/sessions               the caller's sessions, the one making the request marked "current"
//	POST /api/chat/sessions/{id}/revoke  revokes another of the caller's sessions at once
//
// Signing a session out revokes its token (sessions.go, revoked_tokens), which also closes its live
// streams through the relay. A password or email change makes PocketBase refresh the account's
// token key, which voids every token of the account: every row is revoked in the same transaction,
// and the request that changed it may start a new session (pb_hooks/password.pb.js).
const (
	sessionsTable = "sessions"
	// the summary the web server forwards with an auth request (app/lib/user-agent.ts)
	sessionAgentHeader = "X-ChatCrypt-Agent"
	unknownAgent       = "Unknown browser"
	// request store keys: the hash of the caller's users token (set on every request signed in as a
	// user), and the first-seen time a route that renews the caller's session carries over
	sessionHashKey      = "chatcrypt.sessionHash"
	sessionFirstSeenKey = "chatcrypt.sessionFirstSeen"
	// "last seen" is written at most this often per session
	lastSeenEvery   = time.Minute
	maxListed       = 200
	maxTouchEntries = 100_000
)

var agentPattern = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9 .]{0,47}$`)

// sessionAgent is the request's user agent summary, as the web server forwarded it.
func sessionAgent(r *http.Request) string {
	if agent := r.Header.Get(sessionAgentHeader); agentPattern.MatchString(agent) {
		return agent
	}
	return unknownAgent
}

// tokenExpiry is when a token we issued expires (a week from now when it cannot be read).
func tokenExpiry(token string) types.DateTime {
	expires := time.Now().Add(8 * 24 * time.Hour)
	if claims, err := security.ParseUnverifiedJWT(token); err == nil {
		if exp, ok := claims["exp"].(float64); ok {
			expires = time.Unix(int64(exp), 0)
		}
	}
	at, _ := types.ParseDateTime(expires)
	return at
}

// startSession records the session of a token just issued to user; firstSeen carries over the first
// sight of a session the token renews (zero for a new one).
func startSession(app core.App, user, token, agent string, firstSeen types.DateTime) error {
	collection, err := app.FindCollectionByNameOrId(sessionsTable)
	if err != nil {
		return err
	}
	now := types.NowDateTime()
	if firstSeen.IsZero() || firstSeen.After(now) {
		firstSeen = now
	}
	record := core.NewRecord(collection)
	record.Set("user", user)
	record.Set("token_hash", tokenHash(token))
	record.Set("agent", agent)
	record.Set("first_seen", firstSeen)
	record.Set("last_seen", now)
	record.Set("expires", tokenExpiry(token))
	if err := app.Save(record); err != nil {
		return err
	}
	touched.Store(tokenHash(token), time.Now().Unix())
	return nil
}

// touched: when each session's "last seen" was last written by this process (token hash -> unix s).
var (
	touched      sync.Map
	touchedCount atomic.Int64
)

// touchSession notes that a valid, unrevoked token was used: its row's "last seen" at most once a
// minute, and a row for a token that has none.
func touchSession(e *core.RequestEvent, hash string) {
	now := time.Now().Unix()
	if last, ok := touched.Load(hash); ok && now-last.(int64) < int64(lastSeenEvery/time.Second) {
		return
	}
	if touchedCount.Add(1) > maxTouchEntries {
		touched.Clear()
		touchedCount.Store(0)
	}
	touched.Store(hash, now)
	result, err := e.App.DB().NewQuery("UPDATE {{" + sessionsTable + "}} SET [[last_seen]] = {:now} WHERE [[token_hash]] = {:hash}").
		Bind(dbx.Params{"now": types.NowDateTime().String(), "hash": hash}).Execute()
	if err != nil {
		e.App.Logger().Warn("session last seen not saved", "error", err)
		return
	}
	if rows, _ := result.RowsAffected(); rows > 0 {
		return
	}
	token := requestToken(e)
	// In one transaction, which holds the write lock from its start: the token is checked against the
	// account's current token key, and no password change can void it before the row is written.
	err = e.App.RunInTransaction(func(tx core.App) error {
		record, err := tx.FindAuthRecordByToken(token, core.TokenTypeAuth)
		if err != nil || record.Collection().Name != "users" || isRevoked(tx, token) {
			return nil
		}
		if found, _ := tx.FindFirstRecordByData(sessionsTable, "token_hash", hash); found != nil {
			return nil
		}
		return startSession(tx, record.Id, token, sessionAgent(e.Request), types.DateTime{})
	})
	if err != nil {
		e.App.Logger().Warn("session not recorded", "error", err)
	}
}

// endSessions revokes every recorded session of a user (their tokens stay refused until they expire).
func endSessions(app core.App, user string) error {
	rows, err := app.FindAllRecords(sessionsTable, dbx.HashExp{"user": user})
	if err != nil {
		return err
	}
	for _, row := range rows {
		if err := endSession(app, row); err != nil {
			return err
		}
	}
	return nil
}

func endSession(app core.App, row *core.Record) error {
	if err := revokeTokenHash(app, row.GetString("token_hash"), row.GetDateTime("expires")); err != nil {
		return err
	}
	touched.Delete(row.GetString("token_hash"))
	return app.Delete(row)
}

type sessionItem struct {
	ID        string `json:"id"`
	Agent     string `json:"agent"`
	FirstSeen string `json:"firstSeen"`
	LastSeen  string `json:"lastSeen"`
	Current   bool   `json:"current"`
}

func listSessions(e *core.RequestEvent) error {
	rows, err := e.App.FindRecordsByFilter(sessionsTable, "user = {:user} && expires > {:now}", "-last_seen", maxListed, 0,
		dbx.Params{"user": e.Auth.Id, "now": types.NowDateTime().String()})
	if err != nil {
		return e.InternalServerError("The devices could not be listed.", err)
	}
	current, _ := e.Get(sessionHashKey).(string)
	items := make([]sessionItem, 0, len(rows))
	for _, row := range rows {
		items = append(items, sessionItem{
			ID:        row.Id,
			Agent:     row.GetString("agent"),
			FirstSeen: row.GetDateTime("first_seen").Time().UTC().Format(time.RFC3339),
			LastSeen:  row.GetDateTime("last_seen").Time().UTC().Format(time.RFC3339),
			Current:   current != "" && row.GetString("token_hash") == current,
		})
	}
	sort.SliceStable(items, func(i, j int) bool { return items[i].Current && !items[j].Current })
	return e.JSON(http.StatusOK, map[string]any{"sessions": items})
}

func signOutSession(e *core.RequestEvent) error {
	id := e.Request.PathValue("id")
	notFound := e.NotFoundError("This device is not signed in.", nil)
	if !recordID.MatchString(id) {
		return notFound
	}
	row, err := e.App.FindRecordById(sessionsTable, id)
	if err != nil || row.GetString("user") != e.Auth.Id {
		return notFound
	}
	if current, _ := e.Get(sessionHashKey).(string); row.GetString("token_hash") == current {
		return e.BadRequestError("This is the device you are using: use Sign out instead.", nil)
	}
	err = e.App.RunInTransaction(func(tx core.App) error {
		if err := endSession(tx, row); err != nil {
			return err
		}
		return auditAppend(tx, e, auditWhat{Actor: e.Auth.Id, Action: "session.revoked", Target: e.Auth.Id,
			Details: map[string]any{"session": row.Id, "device": row.GetString("agent")}})
	})
	if err != nil {
		return e.InternalServerError("Signing the device out failed.", err)
	}
	return e.NoContent(http.StatusNoContent)
}

func registerDevices(app core.App) {
	app.OnServe().BindFunc(func(se *core.ServeEvent) error {
		se.Router.GET("/api/chat/sessions", listSessions).Bind(apis.RequireAuth("users"))
		se.Router.POST("/api/chat/sessions/{id}/revoke", signOutSession).Bind(apis.RequireAuth("users"))
		return se.Next()
	})

	// A new token key voids every token of the account: their sessions end with the change.
	app.OnRecordUpdateExecute("users").BindFunc(func(e *core.RecordEvent) error {
		before := e.Record.Original().TokenKey()
		if err := e.Next(); err != nil {
			return err
		}
		if before == "" || before == e.Record.TokenKey() {
			return nil
		}
		return endSessions(e.App, e.Record.Id)
	})

	app.Cron().MustAdd("chatcryptSessionsCleanup", "19 * * * *", func() {
		now := types.NowDateTime()
		if err := deleteExpiredPushSubscriptions(app, now); err != nil { // push_sessions.go
			app.Logger().Warn("push subscriptions cleanup failed", "error", err)
		}
		if err := keepLastSeenOfExpired(app, now); err != nil { // last_seen.go
			app.Logger().Warn("keeping expired sessions' last activity failed", "error", err)
		}
		_, err := app.DB().Delete(sessionsTable, dbx.NewExp("[[expires]] < {:now}", dbx.Params{"now": now.String()})).Execute()
		if err != nil {
			app.Logger().Warn("sessions cleanup failed", "error", err)
		}
	})
}

package main

import (
	"crypto/sha256"
	"encoding/hex"
	"net/http"
	"strings"

	"github.com/golang-jwt/jwt/v5"
	"github.com/pocketbase/dbx"
	"github.com/pocketbase/pocketbase/apis"
	"github.com/pocketbase/pocketbase/core"
	"github.com/pocketbase/pocketbase/tools/hook"
	"github.com/pocketbase/pocketbase/tools/security"
	"github.com/pocketbase/pocketbase/tools/types"
)

// Signing out revokes the session's token on the server: its hash goes into revoked_tokens (see the
// migration), and a request carrying a revoked token is treated as a guest from then on, so every
// API rule that needs a signed-in user refuses it. Other sessions of the same user stay signed in.
//
//	POST /api/chat/signout   revokes the caller's own token
//	GET  /api/chat/session   200 with the user's id while the token is valid and not revoked, else 401
//	                         (deactivated.go: with the reason when the account was deactivated or an
//	                         administrator signed it out of all devices, admin_signout.go)
const revokedTokensTable = "revoked_tokens"

func tokenHash(token string) string {
	sum := sha256.Sum256([]byte(token))
	return hex.EncodeToString(sum[:])
}

func requestToken(e *core.RequestEvent) string {
	token := e.Request.Header.Get("Authorization")
	if len(token) > 7 && strings.EqualFold(token[:7], "Bearer ") {
		return token[7:]
	}
	return token
}

func isRevoked(app core.App, token string) bool {
	return isRevokedHash(app, tokenHash(token))
}

func isRevokedHash(app core.App, hash string) bool {
	// revocations.go: kept in memory too (the database may not have been writable)
	return revocations.has(hash) || isRevokedInDB(app, hash)
}

func isRevokedInDB(app core.App, hash string) bool {
	var found int
	err := app.DB().Select("(1)").From(revokedTokensTable).
		Where(dbx.HashExp{"token_hash": hash}).Limit(1).Row(&found)
	return err == nil && found == 1
}

// revokeTokenHash refuses the token with this hash from now until it expires; the relay closes its
// live streams once the transaction commits (relay.go).
func revokeTokenHash(app core.App, hash string, expires types.DateTime) error {
	if isRevokedInDB(app, hash) {
		return nil
	}
	collection, err := app.FindCollectionByNameOrId(revokedTokensTable)
	if err != nil {
		return err
	}
	record := core.NewRecord(collection)
	record.Set("token_hash", hash)
	record.Set("expires", expires)
	return app.Save(record)
}

// sessionToken is PocketBase's own auth token plus a random session id ("sid"): two sign-ins of the
// same user within one second would otherwise get the very same token, and signing out one of
// them would sign out the other too.
func sessionToken(record *core.Record) (string, error) {
	claims := jwt.MapClaims{
		core.TokenClaimType:         core.TokenTypeAuth,
		core.TokenClaimId:           record.Id,
		core.TokenClaimCollectionId: record.Collection().Id,
		core.TokenClaimRefreshable:  true,
		"sid":                       security.RandomString(20),
	}
	key := record.TokenKey() + record.Collection().AuthToken.Secret
	return security.NewJWT(claims, key, record.Collection().AuthToken.DurationTime())
}

func registerSessions(app core.App) {
	// Every users token is issued here, and its session recorded (devices.go): a route that renews the
	// caller's own session sets its first sight in the request store (sessionFirstSeenKey).
	app.OnRecordAuthRequest("users").BindFunc(func(e *core.RecordAuthRequestEvent) error {
		if e.Record == nil {
			return e.Next()
		}
		if token, err := sessionToken(e.Record); err == nil {
			e.Token = token
		}
		firstSeen, _ := types.ParseDateTime(e.Get(sessionFirstSeenKey))
		if err := startSession(e.App, e.Record.Id, e.Token, sessionAgent(e.Request), firstSeen); err != nil {
			return e.InternalServerError("The session could not be started.", err)
		}
		if err := e.Next(); err != nil {
			if row, _ := e.App.FindFirstRecordByData(sessionsTable, "token_hash", tokenHash(e.Token)); row != nil {
				_ = e.App.Delete(row)
			}
			return err
		}
		return nil
	})

	app.OnServe().BindFunc(func(se *core.ServeEvent) error {
		// Right after PocketBase has loaded the auth record from the token: a revoked token is no auth.
		se.Router.Bind(&hook.Handler[*core.RequestEvent]{
			Id:       "chatcryptRevokedTokens",
			Priority: apis.DefaultLoadAuthTokenMiddlewarePriority + 1,
			Func: func(e *core.RequestEvent) error {
				if e.Auth != nil && e.Auth.Collection().Name == "users" {
					hash := tokenHash(requestToken(e))
					if isRevokedHash(e.App, hash) {
						e.Auth = nil
					} else {
						e.Set(sessionHashKey, hash)
						touchSession(e, hash) // devices.go
					}
				}
				return e.Next()
			},
		})

		se.Router.POST("/api/chat/signout", func(e *core.RequestEvent) error {
			token := requestToken(e)
			hash := tokenHash(token)
			// revocations.go: the token is refused from now on even when the disk is full
			err := revokeDurably(e.App, hash, tokenExpiry(token), func() error {
				return e.App.RunInTransaction(func(tx core.App) error {
					if row, _ := tx.FindFirstRecordByData(sessionsTable, "token_hash", hash); row != nil {
						return endSession(tx, row) // devices.go
					}
					return revokeTokenHash(tx, hash, tokenExpiry(token))
				})
			})
			if err != nil {
				return e.InternalServerError("Signing out failed.", err)
			}
			return e.NoContent(http.StatusNoContent)
		}).Bind(apis.RequireAuth("users"))

		return se.Next()
	})

	// A new token key (PocketBase gives one with every new password or email) ends every session of
	// the user: PocketBase no longer accepts their tokens, and the relay drops them at once.
	app.OnRecordAfterUpdateSuccess("users").BindFunc(func(e *core.RecordEvent) error {
		if e.Record.Original().TokenKey() != e.Record.TokenKey() {
			relay.revokeUser(e.Record.Id)
		}
		return e.Next()
	})

	registerDevices(app)

	// Expired tokens are refused anyway: forget their revocations once an hour.
	app.Cron().MustAdd("chatcryptRevokedTokensCleanup", "17 * * * *", func() {
		_, err := app.DB().Delete(revokedTokensTable, dbx.NewExp("[[expires]] < {:now}", dbx.Params{"now": types.NowDateTime().String()})).Execute()
		if err != nil {
			app.Logger().Warn("revoked tokens cleanup failed", "error", err)
		}
	})
}

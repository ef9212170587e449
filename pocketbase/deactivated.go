package main

import (
	"net/http"

	"github.com/pocketbase/pocketbase/apis"
	"github.com/pocketbase/pocketbase/core"
	"github.com/pocketbase/pocketbase/tools/security"
)

// Deactivated accounts (docs/decisions/0056-deactivation.md). An administrator's deactivation
// (pb_hooks/deactivate.pb.js) sets profiles.deactivated, gives the account a new token key (every
// token refused, every session ended, its live streams closed: sessions.go, devices.go) and removes
// its memberships. Here:
//   - no token is issued to a deactivated account, whatever the way in (password, passkey, a password
//     change or reset, a refresh): 403 with deactivatedMessage;
//   - GET /api/chat/session answers a revoked token of a deactivated account with deactivatedMessage,
//     so its open pages can say why they are signed out;
//   - each membership that ends because of it tells the conversation's remaining members
//     ("member-deactivated" through the relay): an online member's page commits the removal of the
//     person's devices from the conversation's MLS group and says they were removed.
const deactivatedMessage = "This account was deactivated by an administrator."

// isDeactivated: the user's profile says the account is deactivated.
func isDeactivated(app core.App, userID string) bool {
	profile, err := app.FindRecordById("profiles", userID)
	return err == nil && profile.GetBool("deactivated")
}

// deactivatedToken: the token was ours (its hash is among the revoked ones) and names a deactivated account.
func deactivatedToken(app core.App, token string) bool {
	if token == "" || !isRevoked(app, token) {
		return false
	}
	claims, err := security.ParseUnverifiedJWT(token)
	if err != nil {
		return false
	}
	id, _ := claims[core.TokenClaimId].(string)
	return id != "" && isDeactivated(app, id)
}

type memberDeactivated struct {
	Channel string `json:"channel"`
	User    string `json:"user"`
	Name    string `json:"name"`
}

func registerDeactivated(app core.App) {
	app.OnRecordAuthRequest("users").BindFunc(func(e *core.RecordAuthRequestEvent) error {
		if e.Record != nil && isDeactivated(e.App, e.Record.Id) {
			return e.ForbiddenError(deactivatedMessage, nil)
		}
		return e.Next()
	})

	app.OnServe().BindFunc(func(se *core.ServeEvent) error {
		se.Router.GET("/api/chat/session", func(e *core.RequestEvent) error {
			if e.Auth != nil && e.Auth.Collection().Name == "users" {
				return e.JSON(http.StatusOK, map[string]string{"id": e.Auth.Id})
			}
			if deactivatedToken(e.App, requestToken(e)) {
				return e.UnauthorizedError(deactivatedMessage, nil)
			}
			return apis.NewUnauthorizedError("The request requires valid record authorization token.", nil)
		})
		return se.Next()
	})

	app.OnRecordAfterDeleteSuccess("channel_members").BindFunc(func(e *core.RecordEvent) error {
		userID := e.Record.GetString("user")
		if relay.listening() && isDeactivated(e.App, userID) {
			channelID := e.Record.GetString("channel")
			if ids, err := channelMembers(e.App, channelID); err == nil && len(ids) > 0 {
				relay.publish("member-deactivated", ids, memberDeactivated{Channel: channelID, User: userID, Name: usernameOf(e.App, userID)})
			}
		}
		return e.Next()
	})
}

package main

import (
	"net/http"

	"github.com/pocketbase/dbx"
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

// providerDeactivatedMessage: the identity provider no longer knows the account (pb_hooks/lib/sso_leavers.js).
const providerDeactivatedMessage = "This account was deactivated by the identity provider."

// deactivatedMessageFor says who deactivated the account: the identity provider when its single sign-on
// link says the provider refused it, else an administrator.
func deactivatedMessageFor(app core.App, userID string) string {
	link, err := app.FindFirstRecordByFilter("sso_links", "user = {:user} && gone != ''", dbx.Params{"user": userID})
	if err == nil && link != nil {
		return providerDeactivatedMessage
	}
	return deactivatedMessage
}

// isDeactivated: the user's profile says the account is deactivated.
func isDeactivated(app core.App, userID string) bool {
	profile, err := app.FindRecordById("profiles", userID)
	return err == nil && profile.GetBool("deactivated")
}

// deactivatedTokenUser: the account a token names when the token was ours (its hash is among the
// revoked ones) and the account is deactivated; "" otherwise.
func deactivatedTokenUser(app core.App, token string) string {
	if token == "" || !isRevoked(app, token) {
		return ""
	}
	claims, err := security.ParseUnverifiedJWT(token)
	if err != nil {
		return ""
	}
	id, _ := claims[core.TokenClaimId].(string)
	if id == "" || !isDeactivated(app, id) {
		return ""
	}
	return id
}

type memberDeactivated struct {
	Channel string `json:"channel"`
	User    string `json:"user"`
	Name    string `json:"name"`
	// The conversation's MLS group as it stands once the membership ended (none for a classic channel):
	// a page whose state is at that epoch commits the removal without first asking for newer commits.
	Epoch      *int `json:"epoch,omitempty"`
	Generation int  `json:"generation,omitempty"`
}

// groupMark: a conversation's current MLS epoch and generation (ADR 0049), or nil when it has no group.
func groupMark(app core.App, channelID string) (*int, int) {
	group, err := app.FindFirstRecordByFilter("mls_groups", "channel = {:channel}", dbx.Params{"channel": channelID})
	if err != nil || group == nil {
		return nil, 0
	}
	epoch := group.GetInt("epoch")
	return &epoch, group.GetInt("generation")
}

func registerDeactivated(app core.App) {
	app.OnRecordAuthRequest("users").BindFunc(func(e *core.RecordAuthRequestEvent) error {
		if e.Record != nil && isDeactivated(e.App, e.Record.Id) {
			return e.ForbiddenError(deactivatedMessageFor(e.App, e.Record.Id), nil)
		}
		return e.Next()
	})

	app.OnServe().BindFunc(func(se *core.ServeEvent) error {
		se.Router.GET("/api/chat/session", func(e *core.RequestEvent) error {
			if e.Auth != nil && e.Auth.Collection().Name == "users" {
				return e.JSON(http.StatusOK, map[string]string{"id": e.Auth.Id})
			}
			if id := deactivatedTokenUser(e.App, requestToken(e)); id != "" {
				return e.UnauthorizedError(deactivatedMessageFor(e.App, id), nil)
			}
			// (admin_signout.go: an administrator's "Sign out all devices")
			if signedOutByAdmin(e.App, requestToken(e)) {
				return e.UnauthorizedError(adminSignedOutMessage, nil)
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
				epoch, generation := groupMark(e.App, channelID)
				event := memberDeactivated{Channel: channelID, User: userID, Name: usernameOf(e.App, userID), Epoch: epoch, Generation: generation}
				relay.publish("member-deactivated", ids, event)
			}
		}
		return e.Next()
	})
}

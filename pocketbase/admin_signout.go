package main

import (
	"github.com/pocketbase/dbx"
	"github.com/pocketbase/pocketbase/core"
)

// An administrator's "Sign out all devices" (pb_hooks/admin_console.pb.js) ends every session of the
// person with a new token key and marks each token it revoked (revoked_tokens.by_admin). Their open
// pages ask GET /api/chat/session why they were signed out (deactivated.go): such a token is answered
// with adminSignedOutMessage, so the page does not read as if the person had signed out elsewhere.
const adminSignedOutMessage = "An administrator signed you out of all devices. Please sign in again."

// signedOutByAdmin: the token was revoked by an administrator's "Sign out all devices".
func signedOutByAdmin(app core.App, token string) bool {
	if token == "" {
		return false
	}
	var byAdmin bool
	err := app.DB().Select("by_admin").From(revokedTokensTable).
		Where(dbx.HashExp{"token_hash": tokenHash(token)}).Limit(1).Row(&byAdmin)
	return err == nil && byAdmin
}

package main

import (
	"encoding/base64"
	"encoding/json"
	"errors"
	"net/http"
	"regexp"
	"strings"
	"time"
	"unicode"

	"github.com/pocketbase/dbx"
	"github.com/pocketbase/pocketbase/apis"
	"github.com/pocketbase/pocketbase/core"
	"github.com/pocketbase/pocketbase/tools/types"
)

// Passkeys (docs/decisions/0028-passkeys.md). The web app builds the WebAuthn options and checks a new
// passkey's attestation; this PocketBase issues every challenge, stores the passkeys, and checks each
// sign-in assertion itself before it answers a session token, so no secret shared with the web app
// can mint a session:
//
//	POST /api/chat/passkeys/challenge {"purpose": "register"|"signin"}  (register: signed in)
//	POST /api/chat/passkeys   (signed in) a passkey the web app verified, with the challenge it answered
//	POST /api/chat/passkeys/signin  an assertion; answers like a password sign-in ({token, record, meta})
const (
	passkeysCollection = "passkeys"
	passkeysMaxBody    = 32 * 1024
	passkeysPerUser    = 20
	// (what a 21st passkey is answered, 409)
	passkeysFullMessage = "An account has at most 20 passkeys. Remove one first."
)

var (
	base64url      = regexp.MustCompile(`^[A-Za-z0-9_-]*$`)
	rpIDPattern    = regexp.MustCompile(`^[a-z0-9]([a-z0-9.-]{0,251}[a-z0-9])?$`)
	wrappedPattern = regexp.MustCompile(`^v1\.[A-Za-z0-9_-]{16}\.[A-Za-z0-9_-]{20,}$`)
	transportNames = map[string]bool{"ble": true, "cable": true, "hybrid": true, "internal": true, "nfc": true, "smart-card": true, "usb": true}
)

func registerPasskeys(app core.App) {
	app.OnServe().BindFunc(func(se *core.ServeEvent) error {
		// (a larger body is answered 413 before anything reads it)
		se.Router.POST("/api/chat/passkeys/challenge", servePasskeyChallenge).Bind(apis.BodyLimit(passkeysMaxBody))
		se.Router.POST("/api/chat/passkeys", servePasskeyAdd).Bind(apis.RequireAuth("users"), apis.BodyLimit(passkeysMaxBody))
		se.Router.POST("/api/chat/passkeys/signin", servePasskeySignIn).Bind(apis.BodyLimit(passkeysMaxBody))
		return se.Next()
	})
}

// passkeysFull reports whether an account has its passkeysPerUser passkeys already.
func passkeysFull(db dbx.Builder, userID string) (bool, error) {
	var count int
	err := db.Select("count(*)").From(passkeysCollection).Where(dbx.HashExp{"user": userID}).Row(&count)
	return count >= passkeysPerUser, err
}

// decodeBody reads a bounded JSON object into dst.
func decodeBody(e *core.RequestEvent, dst any) error {
	decoder := json.NewDecoder(http.MaxBytesReader(e.Response, e.Request.Body, passkeysMaxBody))
	if err := decoder.Decode(dst); err != nil {
		return e.BadRequestError("Request body must be a JSON object of at most 32 KB.", nil)
	}
	return nil
}

// bytesField decodes a base64url field (no padding) of min..max bytes.
func bytesField(value string, min, max int) ([]byte, bool) {
	if len(value) > (max*4+2)/3 || !base64url.MatchString(value) {
		return nil, false
	}
	raw, err := base64.RawURLEncoding.DecodeString(value)
	return raw, err == nil && len(raw) >= min && len(raw) <= max
}

func servePasskeyChallenge(e *core.RequestEvent) error {
	var body struct {
		Purpose string `json:"purpose"`
	}
	if err := decodeBody(e, &body); err != nil {
		return err
	}
	user := ""
	switch body.Purpose {
	case "signin":
	case "register":
		if e.Auth == nil || e.Auth.Collection().Name != "users" {
			return e.UnauthorizedError("Sign in to add a passkey.", nil)
		}
		user = e.Auth.Id
	default:
		return e.BadRequestError(`purpose must be "register" or "signin".`, nil)
	}
	challenge := passkeyChallenges.issue(body.Purpose, user, time.Now())
	if challenge == "" {
		return e.TooManyRequestsError("Too many passkey requests are waiting; try again in a few minutes.", nil)
	}
	return e.JSON(http.StatusOK, map[string]any{"challenge": challenge, "ttl": int(passkeyChallengeTTL.Seconds())})
}

type passkeyAddBody struct {
	Challenge    string   `json:"challenge"`
	CredentialID string   `json:"credential_id"`
	PublicKey    string   `json:"public_key"`
	Algorithm    int      `json:"algorithm"`
	Counter      int64    `json:"counter"`
	Transports   []string `json:"transports"`
	Name         string   `json:"name"`
	RPID         string   `json:"rp_id"`
	WrappedEcdh  string   `json:"wrapped_ecdh_private_key"`
	WrappedRsa   string   `json:"wrapped_rsa_private_key"`
}

// wrappedKey: a private key wrapped as app/crypto/keys.ts wraps it ("v1.<iv>.<ciphertext>").
func wrappedKey(value string) bool {
	return len(value) <= 8000 && wrappedPattern.MatchString(value)
}

// passkeyAddProblem is what is wrong with a new passkey's fields ("" when nothing is).
func passkeyAddProblem(b *passkeyAddBody) string {
	if _, ok := bytesField(b.Challenge, 32, 32); !ok {
		return "challenge must be the one this server issued."
	}
	if _, ok := bytesField(b.CredentialID, 16, 1023); !ok {
		return "credential_id must be 16 to 1023 bytes in base64url."
	}
	spki, ok := bytesField(b.PublicKey, 32, 1200)
	if !ok {
		return "public_key must be a SubjectPublicKeyInfo in base64url."
	}
	if _, err := parsePasskeyPublicKey(spki, b.Algorithm); err != nil {
		return err.Error() + "."
	}
	if b.Counter < 0 || b.Counter > 0xffffffff {
		return "counter must be a 32-bit unsigned number."
	}
	if len(b.Transports) > len(transportNames) {
		return "transports lists too many."
	}
	for _, t := range b.Transports {
		if !transportNames[t] {
			return "transports must be WebAuthn transport names."
		}
	}
	b.Name = strings.TrimSpace(b.Name)
	if b.Name == "" || len([]rune(b.Name)) > 64 || strings.IndexFunc(b.Name, unicode.IsControl) >= 0 {
		return "Name the passkey in 1 to 64 characters."
	}
	if !rpIDPattern.MatchString(b.RPID) {
		return "rp_id must be a host name."
	}
	if (b.WrappedEcdh == "") != (b.WrappedRsa == "") {
		return "Both wrapped private keys, or neither."
	}
	if b.WrappedEcdh != "" && (!wrappedKey(b.WrappedEcdh) || !wrappedKey(b.WrappedRsa)) {
		return "The wrapped private keys are malformed."
	}
	return ""
}

func servePasskeyAdd(e *core.RequestEvent) error {
	var body passkeyAddBody
	if err := decodeBody(e, &body); err != nil {
		return err
	}
	if problem := passkeyAddProblem(&body); problem != "" {
		return e.BadRequestError(problem, nil)
	}
	if !passkeyChallenges.take(body.Challenge, "register", e.Auth.Id, time.Now()) {
		return e.BadRequestError("This request to add a passkey has expired. Try again.", nil)
	}
	full, err := passkeysFull(e.App.DB(), e.Auth.Id)
	if err != nil {
		return e.InternalServerError("", err)
	}
	if full {
		return apis.NewApiError(http.StatusConflict, passkeysFullMessage, nil)
	}
	collection, err := e.App.FindCollectionByNameOrId(passkeysCollection)
	if err != nil {
		return e.InternalServerError("", err)
	}
	record := core.NewRecord(collection)
	record.Load(map[string]any{
		"user":                     e.Auth.Id,
		"credential_id":            body.CredentialID,
		"public_key":               body.PublicKey,
		"algorithm":                body.Algorithm,
		"counter":                  body.Counter,
		"transports":               body.Transports,
		"name":                     body.Name,
		"rp_id":                    body.RPID,
		"wrapped_ecdh_private_key": body.WrappedEcdh,
		"wrapped_rsa_private_key":  body.WrappedRsa,
	})
	err = e.App.RunInTransaction(func(tx core.App) error {
		if err := tx.Save(record); err != nil {
			return err
		}
		return auditAppend(tx, e, auditWhat{Actor: e.Auth.Id, Action: "passkey.added", Target: e.Auth.Id,
			Details: map[string]any{"passkey": record.Id}})
	})
	if err != nil {
		if strings.Contains(strings.ToLower(err.Error()), "unique") {
			return apis.NewApiError(http.StatusConflict, "This passkey is already added to an account.", nil)
		}
		return e.BadRequestError("The passkey could not be saved.", err)
	}
	return e.JSON(http.StatusOK, passkeyListing(record))
}

// passkeyListing is what the owner's list shows of a passkey.
func passkeyListing(record *core.Record) map[string]any {
	return map[string]any{
		"id":        record.Id,
		"name":      record.GetString("name"),
		"created":   record.GetDateTime("created").String(),
		"last_used": record.GetDateTime("last_used").String(),
		"unlocks":   record.GetString("wrapped_ecdh_private_key") != "",
	}
}

type passkeySignInBody struct {
	CredentialID      string `json:"credential_id"`
	ClientDataJSON    string `json:"client_data_json"`
	AuthenticatorData string `json:"authenticator_data"`
	Signature         string `json:"signature"`
	UserHandle        string `json:"user_handle"`
	Origin            string `json:"origin"`
	RPID              string `json:"rp_id"`
}

func servePasskeySignIn(e *core.RequestEvent) error {
	var body passkeySignInBody
	if err := decodeBody(e, &body); err != nil {
		return err
	}
	var a assertion
	var ok [4]bool
	_, ok[0] = bytesField(body.CredentialID, 16, 1023)
	a.clientDataJSON, ok[1] = bytesField(body.ClientDataJSON, 20, 4096)
	a.authenticatorData, ok[2] = bytesField(body.AuthenticatorData, 37, 4096)
	a.signature, ok[3] = bytesField(body.Signature, 32, 1024)
	userHandle, handleOK := bytesField(body.UserHandle, 0, 64)
	if ok != [4]bool{true, true, true, true} || !handleOK {
		return e.BadRequestError("The passkey's answer is malformed.", nil)
	}
	a.userHandle = userHandle
	if !rpIDPattern.MatchString(body.RPID) || len(body.Origin) > 300 || !strings.HasPrefix(body.Origin, "http") {
		return e.BadRequestError("origin and rp_id must name the web app.", nil)
	}
	data, err := parseClientData(a.clientDataJSON)
	if err != nil {
		return e.BadRequestError(err.Error(), nil)
	}
	if !passkeyChallenges.take(data.Challenge, "signin", "", time.Now()) {
		return e.BadRequestError("This passkey sign-in has expired or was already used. Try again.", nil)
	}
	record, err := e.App.FindFirstRecordByData(passkeysCollection, "credential_id", body.CredentialID)
	if err != nil || record.GetString("rp_id") != body.RPID {
		return e.UnauthorizedError("This passkey is not registered here. Sign in with your password, then add it again under Account.", nil)
	}
	spki, _ := base64.RawURLEncoding.DecodeString(record.GetString("public_key"))
	stored := storedPasskey{
		publicKey: spki,
		algorithm: record.GetInt("algorithm"),
		rpID:      record.GetString("rp_id"),
		counter:   uint32(record.GetInt("counter")),
		userID:    record.GetString("user"),
	}
	counter, err := verifyAssertion(a, data, stored, body.Origin)
	var refused *assertionError
	if errors.As(err, &refused) {
		return e.UnauthorizedError(refused.message, nil)
	} else if err != nil {
		return e.InternalServerError("", err)
	}
	user, err := e.App.FindRecordById("users", stored.userID)
	if err != nil {
		return e.UnauthorizedError("This passkey's account no longer exists.", nil)
	}
	record.Set("counter", counter)
	record.Set("last_used", types.NowDateTime())
	if err := e.App.Save(record); err != nil {
		return e.InternalServerError("", err)
	}
	return apis.RecordAuthResponse(e, user, "passkey", map[string]any{
		"passkey": map[string]any{
			"id":                       record.Id,
			"wrapped_ecdh_private_key": record.GetString("wrapped_ecdh_private_key"),
			"wrapped_rsa_private_key":  record.GetString("wrapped_rsa_private_key"),
		},
	})
}

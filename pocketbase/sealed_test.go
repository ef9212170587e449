package main

import (
	"crypto/rand"
	"encoding/base64"
	"testing"
)

// A classic channel refuses MLS messages (issue 47): a real ts-mls private message is recognised, in
// either base64 form; a classic channel's JSON envelope and random ciphertext are not.
func TestIsMLSPrivateMessage(t *testing.T) {
	commit := mlsFixture(t, "commit-0.b64")
	if !isMLSPrivateMessage(base64.RawURLEncoding.EncodeToString(commit)) || !isMLSPrivateMessage(base64.StdEncoding.EncodeToString(commit)) {
		t.Fatal("a ts-mls private message was not recognised")
	}
	if isMLSPrivateMessage(base64.RawURLEncoding.EncodeToString(commit[:len(commit)-1])) {
		t.Fatal("a truncated message was taken for a whole one")
	}
	envelope := `{"v":1,"iv":"AAAAAAAAAAAAAAAA","ct":"AAAA","sig":"AAAA"}`
	if isMLSPrivateMessage(envelope) {
		t.Fatal("a classic envelope was taken for an MLS message")
	}
	for i := 0; i < 1000; i++ {
		random := make([]byte, 64+i)
		_, _ = rand.Read(random)
		if isMLSPrivateMessage(base64.StdEncoding.EncodeToString(random)) {
			t.Fatal("random bytes were taken for an MLS message")
		}
	}
}

// A sealed channel stores only what its members can read (the garbage a member could post was counted
// by every page as a message it could not read): an application message of the channel's group at the
// record's epoch. Commits, other groups, other epochs, random bytes and cut messages are not.
func TestIsApplicationMessage(t *testing.T) {
	message := base64.RawURLEncoding.EncodeToString(mlsFixture(t, "message-1.b64"))
	if !isApplicationMessage(message, fixtureGroup, 1) {
		t.Fatal("a ts-mls application message was refused")
	}
	refused := map[string]bool{
		"another epoch": isApplicationMessage(message, fixtureGroup, 0),
		"another group": isApplicationMessage(message, "chan0123456789b", 1),
		"a commit":      isApplicationMessage(base64.RawURLEncoding.EncodeToString(mlsFixture(t, "commit-0.b64")), fixtureGroup, 0),
		"a cut message": isApplicationMessage(message[:len(message)-4], fixtureGroup, 1),
		"random bytes":  isApplicationMessage(base64.RawURLEncoding.EncodeToString(make([]byte, 80)), fixtureGroup, 1),
		"an envelope":   isApplicationMessage(`{"v":1,"iv":"AAAA","ct":"AAAA","sig":"AAAA"}`, fixtureGroup, 1),
	}
	for what, taken := range refused {
		if taken {
			t.Errorf("%s was taken for an application message", what)
		}
	}
}

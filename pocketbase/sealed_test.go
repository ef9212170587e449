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

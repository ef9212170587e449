package main

import (
	"encoding/base64"
	"os"
	"strings"
	"testing"
)

// The fixtures are real ts-mls output (testdata/mls/make.ts), in group "chan0123456789a": Alice
// creates it (epoch 0) and adds Bob (commit-0), Carol joins by external commit (external-commit-1); Dave
// joins from the same GroupInfo (group-info-2-dave).
const (
	fixtureGroup = "chan0123456789a"
	aliceID      = "alice000000000a"
	carolID      = "carol00000000cc"
)

func mlsFixture(t *testing.T, name string) []byte {
	t.Helper()
	text, err := os.ReadFile("testdata/mls/" + name)
	if err != nil {
		t.Fatal(err)
	}
	data, err := base64.RawURLEncoding.DecodeString(strings.TrimSpace(string(text)))
	if err != nil {
		t.Fatal(err)
	}
	return data
}

func wantError(t *testing.T, err error, part string) {
	t.Helper()
	if err == nil || !strings.Contains(err.Error(), part) {
		t.Fatalf("want an error with %q, got %v", part, err)
	}
}

func TestCheckCommitAcceptsMemberAndExternalCommits(t *testing.T) {
	if err := checkCommit(mlsFixture(t, "commit-0.b64"), fixtureGroup, 0, false); err != nil {
		t.Fatalf("member commit: %v", err)
	}
	if err := checkCommit(mlsFixture(t, "external-commit-1.b64"), fixtureGroup, 1, true); err != nil {
		t.Fatalf("external commit: %v", err)
	}
}

func TestCheckCommitRefuses(t *testing.T) {
	member := mlsFixture(t, "commit-0.b64")
	wantError(t, checkCommit([]byte("garbage"), fixtureGroup, 0, false), "MLS")
	wantError(t, checkCommit(nil, fixtureGroup, 0, false), "MLS 1.0")
	wantError(t, checkCommit(member, "otherchannel123", 0, false), "not for this channel")
	wantError(t, checkCommit(member, fixtureGroup, 1, false), "epoch 0, not at epoch 1")
	wantError(t, checkCommit(member[:len(member)-1], fixtureGroup, 0, false), "well-formed")
	wantError(t, checkCommit(append(append([]byte{}, member...), 0), fixtureGroup, 0, false), "well-formed")
	wantError(t, checkCommit(mlsFixture(t, "group-info-0.b64"), fixtureGroup, 0, false), "private or public")
	wantError(t, checkCommit(member, fixtureGroup, 0, true), "external join must be an MLS public message")
	// An application message instead of a commit (content type 1).
	app := append([]byte{}, member...)
	app[4+1+len(fixtureGroup)+8] = 1
	wantError(t, checkCommit(app, fixtureGroup, 0, false), "does not carry a commit")
	// An external commit whose sender is an external sender (type 2).
	external := append([]byte{}, mlsFixture(t, "external-commit-1.b64")...)
	external[4+1+len(fixtureGroup)+8] = 2
	wantError(t, checkCommit(external, fixtureGroup, 1, false), "member or a joining device")
}

func TestCheckGroupInfoAcceptsSignedByCaller(t *testing.T) {
	for _, c := range []struct {
		name   string
		epoch  uint64
		caller string
	}{{"group-info-0.b64", 0, aliceID}, {"group-info-1.b64", 1, aliceID}, {"group-info-2.b64", 2, carolID}} {
		if err := checkGroupInfo(mlsFixture(t, c.name), fixtureGroup, c.epoch, c.caller); err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
	}
}

func TestCheckGroupInfoRefuses(t *testing.T) {
	info := mlsFixture(t, "group-info-1.b64")
	wantError(t, checkGroupInfo([]byte("garbage"), fixtureGroup, 1, aliceID), "GroupInfo")
	wantError(t, checkGroupInfo(mlsFixture(t, "commit-0.b64"), fixtureGroup, 1, aliceID), "GroupInfo")
	wantError(t, checkGroupInfo(info, "otherchannel123", 1, aliceID), "not for this channel")
	wantError(t, checkGroupInfo(info, fixtureGroup, 2, aliceID), "epoch 1, not for epoch 2")
	// Signed by Alice's device: not Carol's to send, and Bob's leaf is not the signer.
	wantError(t, checkGroupInfo(info, fixtureGroup, 1, carolID), "your own devices")
	wantError(t, checkGroupInfo(info[:len(info)-3], fixtureGroup, 1, aliceID), "well-formed")
	// One bit of the signature changed.
	forged := append([]byte{}, info...)
	forged[len(forged)-1] ^= 1
	wantError(t, checkGroupInfo(forged, fixtureGroup, 1, aliceID), "signature does not verify")
	// One bit of the group context's tree hash changed: the signature no longer covers it.
	tampered := append([]byte{}, info...)
	tampered[4+4+1+len(fixtureGroup)+8+1] ^= 1
	wantError(t, checkGroupInfo(tampered, fixtureGroup, 1, aliceID), "signature does not verify")
	// Another cipher suite.
	suite := append([]byte{}, info...)
	suite[7] = 2
	wantError(t, checkGroupInfo(suite, fixtureGroup, 1, aliceID), "cipher suite")
}

func TestLeafAtRefusesBlankAndOutOfRangeSigners(t *testing.T) {
	if _, err := leafAt([]byte{0}, 0); err == nil {
		t.Fatal("an empty tree has no leaf 0")
	}
	if _, err := leafAt([]byte{1, 0}, 0); err == nil {
		t.Fatal("a blank leaf is not a signer")
	}
	if _, err := leafAt([]byte{2, 1, 9}, 0); err == nil {
		t.Fatal("an unknown node type is malformed")
	}
}

func TestSignContentMatchesRFC(t *testing.T) {
	got := signContent("GroupInfoTBS", []byte{1, 2})
	want := append(append([]byte{20}, "MLS 1.0 GroupInfoTBS"...), 2, 1, 2)
	if string(got) != string(want) {
		t.Fatalf("got %v want %v", got, want)
	}
	if long := appendVarLen(nil, 300); long[0] != 0x41 || long[1] != 0x2c {
		t.Fatalf("two-byte length: %v", long)
	}
}

// Whatever a member sends, the checks answer (never panic): `go test -fuzz FuzzMLSCheck`.
func FuzzMLSCheck(f *testing.F) {
	for _, name := range []string{"commit-0.b64", "external-commit-1.b64", "group-info-0.b64", "group-info-1.b64", "group-info-2.b64"} {
		text, err := os.ReadFile("testdata/mls/" + name)
		if err != nil {
			f.Fatal(err)
		}
		data, _ := base64.RawURLEncoding.DecodeString(strings.TrimSpace(string(text)))
		f.Add(data)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		_ = checkCommit(data, fixtureGroup, 0, false)
		_ = checkCommit(data, fixtureGroup, 1, true)
		_ = checkCommitSender(data, data, data)
		for epoch := uint64(0); epoch < 3; epoch++ {
			_ = checkGroupInfo(data, fixtureGroup, epoch, aliceID)
		}
	})
}

func TestCheckCommitSender(t *testing.T) {
	external, was, next := mlsFixture(t, "external-commit-1.b64"), mlsFixture(t, "group-info-1.b64"), mlsFixture(t, "group-info-2.b64")
	if err := checkCommitSender(external, was, next); err != nil {
		t.Fatalf("Carol's external commit with her GroupInfo: %v", err)
	}
	// A member's private commit: its sender cannot be seen.
	if err := checkCommitSender(mlsFixture(t, "commit-0.b64"), mlsFixture(t, "group-info-0.b64"), was); err != nil {
		t.Fatalf("private commit: %v", err)
	}
	// Carol's commit passed on with Dave's GroupInfo (Dave's leaf did not sign it).
	wantError(t, checkCommitSender(external, was, mlsFixture(t, "group-info-2-dave.b64")), "not signed by the device that signed group_info")
	// Made from another GroupInfo than the one kept (another epoch's context).
	wantError(t, checkCommitSender(external, mlsFixture(t, "group-info-0.b64"), next), "not signed by the device")
	wantError(t, checkCommitSender(external, []byte("garbage"), next), "kept GroupInfo cannot be read")
	// One bit of the commit's content changed.
	tampered := append([]byte{}, external...)
	tampered[len(tampered)-80] ^= 1
	if checkCommitSender(tampered, was, next) == nil {
		t.Fatal("a changed commit still verified")
	}
	// A member's public commit whose sender leaf is not the GroupInfo's signer (Carol is leaf 2).
	member := append([]byte{}, external[:4+1+len(fixtureGroup)+8]...)
	member = append(member, senderMember, 0, 0, 0, 1)
	member = append(member, external[4+1+len(fixtureGroup)+8+1:]...)
	member = append(member, 0) // an empty membership_tag
	wantError(t, checkCommitSender(member, was, next), "sender is not the device that signed group_info")
}

package main

import (
	"crypto"
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/rsa"
	"crypto/sha256"
	"crypto/x509"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/pocketbase/dbx"
)

const testOrigin = "https://chat.example.test"

// testAuthenticator signs assertions the way an authenticator does, with one of the three algorithms.
type testAuthenticator struct {
	algorithm int
	sign      func(signed []byte) []byte
	spki      []byte
}

func newTestAuthenticator(t *testing.T, algorithm int) testAuthenticator {
	t.Helper()
	var public any
	var sign func([]byte) []byte
	switch algorithm {
	case coseES256:
		key, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
		public = &key.PublicKey
		sign = func(signed []byte) []byte {
			digest := sha256.Sum256(signed)
			sig, _ := ecdsa.SignASN1(rand.Reader, key, digest[:])
			return sig
		}
	case coseEdDSA:
		pub, key, _ := ed25519.GenerateKey(rand.Reader)
		public = pub
		sign = func(signed []byte) []byte { return ed25519.Sign(key, signed) }
	case coseRS256:
		key, _ := rsa.GenerateKey(rand.Reader, 2048)
		public = &key.PublicKey
		sign = func(signed []byte) []byte {
			digest := sha256.Sum256(signed)
			sig, _ := rsa.SignPKCS1v15(rand.Reader, key, crypto.SHA256, digest[:])
			return sig
		}
	}
	spki, err := x509.MarshalPKIXPublicKey(public)
	if err != nil {
		t.Fatal(err)
	}
	return testAuthenticator{algorithm: algorithm, sign: sign, spki: spki}
}

// assert builds an assertion for rpID, with the flags and counter given, over clientData.
func (a testAuthenticator) assert(rpID string, flags byte, counter uint32, data clientData) (assertion, clientData) {
	raw, _ := json.Marshal(map[string]any{"type": data.Type, "challenge": data.Challenge, "origin": data.Origin, "crossOrigin": data.CrossOrigin})
	rpHash := sha256.Sum256([]byte(rpID))
	authData := append(append([]byte{}, rpHash[:]...), flags, 0, 0, 0, 0)
	binary.BigEndian.PutUint32(authData[33:], counter)
	clientHash := sha256.Sum256(raw)
	signature := a.sign(append(append([]byte{}, authData...), clientHash[:]...))
	return assertion{clientDataJSON: raw, authenticatorData: authData, signature: signature, userHandle: []byte("useridabcdefghi")}, data
}

func (a testAuthenticator) stored(counter uint32) storedPasskey {
	return storedPasskey{publicKey: a.spki, algorithm: a.algorithm, rpID: "chat.example.test", counter: counter, userID: "useridabcdefghi"}
}

var goodData = clientData{Type: "webauthn.get", Challenge: "c", Origin: testOrigin}

func TestVerifyAssertionAcceptsEveryOfferedAlgorithm(t *testing.T) {
	for _, algorithm := range []int{coseES256, coseEdDSA, coseRS256} {
		a := newTestAuthenticator(t, algorithm)
		got, data := a.assert("chat.example.test", flagUserPresent|flagUserVerified, 7, goodData)
		counter, err := verifyAssertion(got, data, a.stored(6), testOrigin)
		if err != nil || counter != 7 {
			t.Fatalf("algorithm %d: counter %d, %v", algorithm, counter, err)
		}
		// an authenticator that counts nothing (0 and 0) is fine too
		got, data = a.assert("chat.example.test", flagUserPresent|flagUserVerified, 0, goodData)
		if _, err := verifyAssertion(got, data, a.stored(0), testOrigin); err != nil {
			t.Fatalf("algorithm %d without a counter: %v", algorithm, err)
		}
	}
}

func TestVerifyAssertionRefuses(t *testing.T) {
	a := newTestAuthenticator(t, coseES256)
	other := newTestAuthenticator(t, coseES256)
	uv := byte(flagUserPresent | flagUserVerified)
	cases := []struct {
		name   string
		build  func() (assertion, clientData, storedPasskey)
		expect string
	}{
		{"another origin", func() (assertion, clientData, storedPasskey) {
			got, data := a.assert("chat.example.test", uv, 1, clientData{Type: "webauthn.get", Challenge: "c", Origin: "https://evil.chat.example.test"})
			return got, data, a.stored(0)
		}, "another site"},
		{"cross-origin frame", func() (assertion, clientData, storedPasskey) {
			got, data := a.assert("chat.example.test", uv, 1, clientData{Type: "webauthn.get", Challenge: "c", Origin: testOrigin, CrossOrigin: true})
			return got, data, a.stored(0)
		}, "another site"},
		{"a registration, not a sign-in", func() (assertion, clientData, storedPasskey) {
			got, data := a.assert("chat.example.test", uv, 1, clientData{Type: "webauthn.create", Challenge: "c", Origin: testOrigin})
			return got, data, a.stored(0)
		}, "not a sign-in"},
		{"another RP ID", func() (assertion, clientData, storedPasskey) {
			got, data := a.assert("example.test", uv, 1, goodData)
			return got, data, a.stored(0)
		}, "another site"},
		{"user not verified", func() (assertion, clientData, storedPasskey) {
			got, data := a.assert("chat.example.test", flagUserPresent, 1, goodData)
			return got, data, a.stored(0)
		}, "did not verify you"},
		{"user not present", func() (assertion, clientData, storedPasskey) {
			got, data := a.assert("chat.example.test", flagUserVerified, 1, goodData)
			return got, data, a.stored(0)
		}, "did not verify you"},
		{"signed by another key", func() (assertion, clientData, storedPasskey) {
			got, data := other.assert("chat.example.test", uv, 1, goodData)
			return got, data, a.stored(0)
		}, "signature does not verify"},
		{"client data changed after signing", func() (assertion, clientData, storedPasskey) {
			got, data := a.assert("chat.example.test", uv, 1, goodData)
			got.clientDataJSON = []byte(strings.Replace(string(got.clientDataJSON), `"c"`, `"d"`, 1))
			return got, data, a.stored(0)
		}, "signature does not verify"},
		{"counter went backwards", func() (assertion, clientData, storedPasskey) {
			got, data := a.assert("chat.example.test", uv, 5, goodData)
			return got, data, a.stored(5)
		}, "counter went backwards"},
		{"counter stopped while it counted", func() (assertion, clientData, storedPasskey) {
			got, data := a.assert("chat.example.test", uv, 0, goodData)
			return got, data, a.stored(3)
		}, "counter went backwards"},
		{"another account's user handle", func() (assertion, clientData, storedPasskey) {
			got, data := a.assert("chat.example.test", uv, 1, goodData)
			got.userHandle = []byte("someoneelse1234")
			return got, data, a.stored(0)
		}, "another account"},
		{"too short authenticator data", func() (assertion, clientData, storedPasskey) {
			got, data := a.assert("chat.example.test", uv, 1, goodData)
			got.authenticatorData = got.authenticatorData[:36]
			return got, data, a.stored(0)
		}, "malformed"},
	}
	for _, c := range cases {
		got, data, stored := c.build()
		_, err := verifyAssertion(got, data, stored, testOrigin)
		if err == nil || !strings.Contains(err.Error(), c.expect) {
			t.Errorf("%s: %v, want %q", c.name, err, c.expect)
		}
	}
}

func TestPasskeyPublicKeyMustMatchItsAlgorithm(t *testing.T) {
	es := newTestAuthenticator(t, coseES256)
	ed := newTestAuthenticator(t, coseEdDSA)
	p384, _ := ecdsa.GenerateKey(elliptic.P384(), rand.Reader)
	p384spki, _ := x509.MarshalPKIXPublicKey(&p384.PublicKey)
	small, _ := rsa.GenerateKey(rand.Reader, 1024)
	smallSpki, _ := x509.MarshalPKIXPublicKey(&small.PublicKey)
	for name, c := range map[string]struct {
		spki      []byte
		algorithm int
	}{
		"ES256 key as EdDSA":   {es.spki, coseEdDSA},
		"EdDSA key as ES256":   {ed.spki, coseES256},
		"P-384 key as ES256":   {p384spki, coseES256},
		"1024-bit RSA":         {smallSpki, coseRS256},
		"an unknown algorithm": {es.spki, -35},
		"not a key":            {[]byte("not a key"), coseES256},
	} {
		if _, err := parsePasskeyPublicKey(c.spki, c.algorithm); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
}

func TestPasskeyChallengesAreTakenOnceForTheirPurposeAndUser(t *testing.T) {
	store := &passkeyChallengeStore{all: map[string]passkeyChallenge{}}
	now := time.Now()
	signin := store.issue("signin", "", now)
	if len(signin) != 43 {
		t.Fatalf("challenge %q", signin)
	}
	if !store.take(signin, "signin", "", now) || store.take(signin, "signin", "", now) {
		t.Fatal("a sign-in challenge must be taken exactly once")
	}
	register := store.issue("register", "alice", now)
	if store.take(register, "register", "bob", now) || store.take(register, "register", "alice", now) {
		t.Fatal("another user's challenge must fail, and it is gone after one try")
	}
	other := store.issue("register", "alice", now)
	if store.take(other, "signin", "", now) {
		t.Fatal("a registration challenge cannot sign in")
	}
	late := store.issue("signin", "", now)
	if store.take(late, "signin", "", now.Add(passkeyChallengeTTL)) {
		t.Fatal("an expired challenge must fail")
	}
}

func TestPasskeyChallengesAreBounded(t *testing.T) {
	store := &passkeyChallengeStore{all: map[string]passkeyChallenge{}}
	now := time.Now()
	for i := 0; i < passkeyChallengeMax; i++ {
		store.issue("signin", "", now)
	}
	if store.issue("signin", "", now) != "" {
		t.Fatal("a full store must refuse while its challenges are fresh")
	}
	if store.issue("signin", "", now.Add(passkeyChallengeTTL)) == "" || len(store.all) != 1 {
		t.Fatalf("expired challenges must make room: %d left", len(store.all))
	}
}

func TestAnAccountHasAtMostTwentyPasskeys(t *testing.T) {
	db := testDB(t, "CREATE TABLE passkeys (id TEXT PRIMARY KEY, user TEXT NOT NULL)")
	add := func(user string, n int) {
		for i := 0; i < n; i++ {
			if _, err := db.Insert("passkeys", dbx.Params{"id": fmt.Sprintf("%s-%d-%d", user, n, i), "user": user}).Execute(); err != nil {
				t.Fatal(err)
			}
		}
	}
	full := func(user string) bool {
		t.Helper()
		answer, err := passkeysFull(db, user)
		if err != nil {
			t.Fatal(err)
		}
		return answer
	}
	add("alice", passkeysPerUser-1)
	add("bob", passkeysPerUser)
	if full("alice") {
		t.Fatal("19 passkeys: a 20th must still be taken")
	}
	if !full("bob") {
		t.Fatal("20 passkeys: a 21st must be refused")
	}
	add("alice", 1)
	if !full("alice") || full("carol") {
		t.Fatal("the cap is per account")
	}
	if passkeysPerUser != 20 || !strings.Contains(passkeysFullMessage, "at most 20 passkeys") {
		t.Fatalf("the cap and its text disagree: %d, %q", passkeysPerUser, passkeysFullMessage)
	}
}

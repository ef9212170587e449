package main

import (
	"bytes"
	"crypto"
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/elliptic"
	"crypto/rsa"
	"crypto/sha256"
	"crypto/x509"
	"encoding/binary"
	"encoding/json"
	"errors"
)

// A WebAuthn assertion checked the way the WebAuthn Level 3 specification (§7.2, "Verifying an
// Authentication Assertion") says, for what our PocketBase has to decide on its own before it hands
// out a session: the browser's clientDataJSON (type, the challenge we issued, the origin), the
// authenticator data (the RP ID's hash, user present and verified, the signature counter) and the
// signature over both, by the public key stored when the passkey was added. The key is kept as
// SubjectPublicKeyInfo, so the standard library verifies it: COSE algorithms -7 (ES256 on P-256),
// -8 (EdDSA, Ed25519) and -257 (RS256), the ones the web server asks authenticators for.

const (
	coseES256 = -7
	coseEdDSA = -8
	coseRS256 = -257

	flagUserPresent  = 0x01
	flagUserVerified = 0x04
)

// assertionError is a refusal the person may read (every one is a 401 or 400 to the web server).
type assertionError struct{ message string }

func (e *assertionError) Error() string { return e.message }

func refuse(message string) error { return &assertionError{message} }

// clientData is the part of the browser's clientDataJSON we check.
type clientData struct {
	Type        string `json:"type"`
	Challenge   string `json:"challenge"`
	Origin      string `json:"origin"`
	CrossOrigin bool   `json:"crossOrigin"`
}

func parseClientData(raw []byte) (clientData, error) {
	var data clientData
	if err := json.Unmarshal(raw, &data); err != nil || data.Challenge == "" || data.Origin == "" {
		return data, refuse("The passkey's answer is malformed.")
	}
	return data, nil
}

// storedPasskey is what verification needs of a passkeys record.
type storedPasskey struct {
	publicKey []byte // SubjectPublicKeyInfo, DER
	algorithm int
	rpID      string
	counter   uint32
	userID    string
}

// assertion is one authentication response, decoded.
type assertion struct {
	clientDataJSON    []byte
	authenticatorData []byte
	signature         []byte
	userHandle        []byte // empty when the authenticator sent none
}

// parsePasskeyPublicKey reads a stored key and checks that it fits its COSE algorithm.
func parsePasskeyPublicKey(spki []byte, algorithm int) (any, error) {
	key, err := x509.ParsePKIXPublicKey(spki)
	if err != nil {
		return nil, errors.New("public_key must be a SubjectPublicKeyInfo")
	}
	switch k := key.(type) {
	case *ecdsa.PublicKey:
		if algorithm == coseES256 && k.Curve == elliptic.P256() {
			return k, nil
		}
	case ed25519.PublicKey:
		if algorithm == coseEdDSA {
			return k, nil
		}
	case *rsa.PublicKey:
		if algorithm == coseRS256 && k.N.BitLen() >= 2048 && k.N.BitLen() <= 8192 {
			return k, nil
		}
	}
	return nil, errors.New("public_key does not match algorithm (-7 on P-256, -8 or -257 with at least 2048 bits)")
}

// verifyAssertion checks an assertion against the stored passkey for the expected origin and
// challenge (already taken from the store by the caller), and answers the authenticator's new
// signature counter.
func verifyAssertion(a assertion, data clientData, key storedPasskey, expectedOrigin string) (uint32, error) {
	if data.Type != "webauthn.get" {
		return 0, refuse("The passkey's answer is not a sign-in.")
	}
	if data.Origin != expectedOrigin || data.CrossOrigin {
		return 0, refuse("The passkey answered for another site.")
	}
	if len(a.authenticatorData) < 37 {
		return 0, refuse("The passkey's answer is malformed.")
	}
	rpHash := sha256.Sum256([]byte(key.rpID))
	if !bytes.Equal(a.authenticatorData[:32], rpHash[:]) {
		return 0, refuse("The passkey answered for another site.")
	}
	flags := a.authenticatorData[32]
	if flags&flagUserPresent == 0 || flags&flagUserVerified == 0 {
		return 0, refuse("The passkey did not verify you (screen lock, PIN or fingerprint). Try again.")
	}
	if len(a.userHandle) > 0 && string(a.userHandle) != key.userID {
		return 0, refuse("The passkey belongs to another account.")
	}
	publicKey, err := parsePasskeyPublicKey(key.publicKey, key.algorithm)
	if err != nil {
		return 0, err
	}
	clientHash := sha256.Sum256(a.clientDataJSON)
	signed := append(append([]byte{}, a.authenticatorData...), clientHash[:]...)
	if !verifySignature(publicKey, signed, a.signature) {
		return 0, refuse("The passkey's signature does not verify.")
	}
	counter := binary.BigEndian.Uint32(a.authenticatorData[33:37])
	// A counter that does not grow (when either side counts) means two copies of the key are in use.
	if (counter > 0 || key.counter > 0) && counter <= key.counter {
		return 0, refuse("This passkey's signature counter went backwards: it may have been copied. Sign in with your password.")
	}
	return counter, nil
}

func verifySignature(publicKey any, signed, signature []byte) bool {
	switch k := publicKey.(type) {
	case *ecdsa.PublicKey:
		digest := sha256.Sum256(signed)
		return ecdsa.VerifyASN1(k, digest[:], signature)
	case ed25519.PublicKey:
		return ed25519.Verify(k, signed, signature)
	case *rsa.PublicKey:
		digest := sha256.Sum256(signed)
		return rsa.VerifyPKCS1v15(k, crypto.SHA256, digest[:], signature) == nil
	}
	return false
}

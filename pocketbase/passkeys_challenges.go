package main

import (
	"crypto/rand"
	"encoding/base64"
	"sync"
	"time"
)

// WebAuthn challenges, issued and kept here (not in a web process: the web app may run as several
// processes, and the passkey sign-in must present a challenge this PocketBase issued). Each is 32
// random bytes, lives 5 minutes, serves one purpose ("register" for one user, or "signin" for anyone)
// and is taken once: presenting it removes it, whether the answer then verifies or not.
const (
	passkeyChallengeTTL = 5 * time.Minute
	passkeyChallengeMax = 50_000
)

type passkeyChallenge struct {
	purpose string
	user    string
	expires time.Time
}

type passkeyChallengeStore struct {
	mu  sync.Mutex
	all map[string]passkeyChallenge
}

var passkeyChallenges = &passkeyChallengeStore{all: map[string]passkeyChallenge{}}

// issue answers a new challenge (base64url, no padding), or "" when too many are waiting.
func (s *passkeyChallengeStore) issue(purpose, user string, now time.Time) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.all) >= passkeyChallengeMax {
		for key, c := range s.all {
			if !now.Before(c.expires) {
				delete(s.all, key)
			}
		}
		if len(s.all) >= passkeyChallengeMax {
			return ""
		}
	}
	raw := make([]byte, 32)
	if _, err := rand.Read(raw); err != nil {
		return ""
	}
	challenge := base64.RawURLEncoding.EncodeToString(raw)
	s.all[challenge] = passkeyChallenge{purpose: purpose, user: user, expires: now.Add(passkeyChallengeTTL)}
	return challenge
}

// take removes the challenge and answers whether it was issued for this purpose (and user, for
// "register") and is still fresh.
func (s *passkeyChallengeStore) take(challenge, purpose, user string, now time.Time) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	c, ok := s.all[challenge]
	if !ok {
		return false
	}
	delete(s.all, challenge)
	return c.purpose == purpose && c.user == user && now.Before(c.expires)
}

package main

import (
	"sync"

	"github.com/zitadel/oidc/v3/example/server/storage"
	"golang.org/x/text/language"
)

// users is the provider's directory: people added through the admin endpoint, each of them
// enabled until the admin endpoint disables them. A disabled person is unknown to the login form,
// the token endpoint's refresh grant and the userinfo endpoint.
type users struct {
	mu       sync.RWMutex
	byID     map[string]*storage.User
	disabled map[string]bool
}

func newUsers() *users {
	return &users{byID: map[string]*storage.User{}, disabled: map[string]bool{}}
}

// put adds the person, or replaces the one with the same username (enabling them again).
func (u *users) put(username, password, email, name string) *storage.User {
	u.mu.Lock()
	defer u.mu.Unlock()
	id := "u-" + username
	user := &storage.User{
		ID:                id,
		Username:          username,
		Password:          password,
		FirstName:         name,
		Email:             email,
		EmailVerified:     true,
		PreferredLanguage: language.English,
	}
	u.byID[id] = user
	delete(u.disabled, id)
	return user
}

// disable answers whether the username was known.
func (u *users) disable(username string) bool {
	u.mu.Lock()
	defer u.mu.Unlock()
	id := "u-" + username
	if _, ok := u.byID[id]; !ok {
		return false
	}
	u.disabled[id] = true
	return true
}

func (u *users) isDisabled(id string) bool {
	u.mu.RLock()
	defer u.mu.RUnlock()
	return u.disabled[id]
}

// GetUserByID implements storage.UserStore: nil for a disabled person.
func (u *users) GetUserByID(id string) *storage.User {
	u.mu.RLock()
	defer u.mu.RUnlock()
	if u.disabled[id] {
		return nil
	}
	return u.byID[id]
}

// GetUserByUsername implements storage.UserStore: nil for a disabled person.
func (u *users) GetUserByUsername(username string) *storage.User {
	return u.GetUserByID("u-" + username)
}

// ExampleClientID implements storage.UserStore (the JWT-profile service user, unused here).
func (u *users) ExampleClientID() string { return storage.ServiceUserID }

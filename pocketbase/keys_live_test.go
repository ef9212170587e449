package main

import (
	"sort"
	"testing"
)

// A user's new keys are told to everyone who shares a conversation with them, once each, and to nobody else.
func TestNewKeysAreToldToThoseWhoShareAConversation(t *testing.T) {
	db := testDB(t,
		"CREATE TABLE IF NOT EXISTS channel_members (id TEXT PRIMARY KEY, channel TEXT NOT NULL, user TEXT NOT NULL)",
		"INSERT INTO channel_members VALUES ('m1', 'team', 'bob'), ('m2', 'team', 'alice'), ('m3', 'team', 'carol'), "+
			"('m4', 'dm', 'bob'), ('m5', 'dm', 'alice'), ('m6', 'elsewhere', 'dave'), ('m7', 'elsewhere', 'alice')",
	)
	got, err := sharingWith(db, "bob")
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(got)
	if len(got) != 2 || got[0] != "alice" || got[1] != "carol" {
		t.Fatalf("got %v, want [alice carol]", got)
	}
	if none, err := sharingWith(db, "erin"); err != nil || len(none) != 0 {
		t.Fatalf("someone in no conversation tells nobody: %v %v", none, err)
	}
}

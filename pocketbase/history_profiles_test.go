package main

import (
	"reflect"
	"testing"

	"github.com/pocketbase/dbx"
)

// A page's senders in the page's order, each once: the public profile (a deactivated account's says so), or a deleted account's keys.
func TestHistoryProfilesNameEachSenderOnce(t *testing.T) {
	db := testDB(t,
		"CREATE TABLE IF NOT EXISTS profiles (id TEXT PRIMARY KEY, username TEXT DEFAULT '' NOT NULL, ecdh_public_key TEXT DEFAULT '' NOT NULL, rsa_public_key TEXT DEFAULT '' NOT NULL, deactivated BOOLEAN DEFAULT FALSE NOT NULL)",
		"CREATE TABLE IF NOT EXISTS deleted_accounts (id TEXT PRIMARY KEY, ecdh_public_key TEXT DEFAULT '' NOT NULL, rsa_public_key TEXT DEFAULT '' NOT NULL)",
		"INSERT INTO profiles VALUES ('alice', 'alice', 'ea', 'ra', FALSE), ('bob', 'bob', 'eb', 'rb', TRUE), ('nobody', 'nobody', 'en', 'rn', FALSE)",
		"INSERT INTO deleted_accounts VALUES ('gone', 'eg', 'rg')",
	)
	page := []historyMessage{{Sender: "bob"}, {Sender: "gone"}, {Sender: "alice"}, {Sender: "bob"}, {Sender: "unknown"}}
	got, err := readProfiles(db, page)
	if err != nil {
		t.Fatal(err)
	}
	byID := map[string]historyProfile{}
	for _, p := range got {
		if _, twice := byID[p.ID]; twice {
			t.Fatalf("%s named twice: %+v", p.ID, got)
		}
		byID[p.ID] = p
	}
	want := map[string]historyProfile{
		"alice": {ID: "alice", Username: "alice", ECDHPublicKey: "ea", RSAPublicKey: "ra"},
		"bob":   {ID: "bob", Username: "bob", ECDHPublicKey: "eb", RSAPublicKey: "rb", Deactivated: true},
		"gone":  {ID: "gone", ECDHPublicKey: "eg", RSAPublicKey: "rg", Deleted: true},
	}
	if !reflect.DeepEqual(byID, want) {
		t.Fatalf("got %+v, want %+v", byID, want)
	}
	if none, err := readProfiles(db, nil); err != nil || len(none) != 0 {
		t.Fatalf("an empty page names %+v (%v)", none, err)
	}
	// At most historyMaxProfiles senders, the first ones of the page.
	many := []historyMessage{}
	for i := 0; i < historyMaxProfiles+20; i++ {
		many = append(many, historyMessage{Sender: string(rune('A'+i%26)) + string(rune('a'+i/26))})
	}
	if _, err := db.NewQuery("DELETE FROM profiles").Execute(); err != nil {
		t.Fatal(err)
	}
	for _, m := range many {
		if _, err := db.Insert("profiles", dbx.Params{"id": m.Sender, "username": m.Sender}).Execute(); err != nil {
			t.Fatal(err)
		}
	}
	got, err = readProfiles(db, many)
	if err != nil || len(got) != historyMaxProfiles {
		t.Fatalf("%d senders named of %d (%v)", len(got), len(many), err)
	}
	for _, p := range got {
		if p.ID == many[historyMaxProfiles].Sender {
			t.Fatalf("%s is past the first %d senders", p.ID, historyMaxProfiles)
		}
	}
}

package main

import (
	"sort"
	"testing"
)

// Of the ids asked, mayKnow keeps the viewer, channel-mates, senders in the viewer's channels, the
// other person of a one-to-one, requesters to the viewer and people the viewer blocked; nobody else.
func TestMayKnowOnlyThePeopleTheViewerMayKnow(t *testing.T) {
	db := testDB(t,
		"CREATE TABLE IF NOT EXISTS channel_members (id TEXT PRIMARY KEY, channel TEXT, user TEXT)",
		"CREATE TABLE IF NOT EXISTS messages (id TEXT PRIMARY KEY, channel TEXT, sender TEXT)",
		"CREATE TABLE IF NOT EXISTS direct_requests (id TEXT PRIMARY KEY, channel TEXT, user TEXT, requester TEXT)",
		"CREATE TABLE IF NOT EXISTS blocks (id TEXT PRIMARY KEY, user TEXT, blocked TEXT)",
		"CREATE TABLE IF NOT EXISTS channels (id TEXT PRIMARY KEY, direct_key TEXT DEFAULT '' NOT NULL)",
		// me and mate share c1; left sent to c1 and left it; far is in c2 only
		"INSERT INTO channel_members VALUES ('m1', 'c1', 'me'), ('m2', 'c1', 'mate'), ('m3', 'c2', 'far'), ('m4', 'c2', 'asked')",
		"INSERT INTO messages VALUES ('x1', 'c1', 'left'), ('x2', 'c2', 'far')",
		// asker asked me; I asked 'asked' (that tells me nothing of them); I blocked pest; someone else blocked far
		"INSERT INTO direct_requests VALUES ('r1', 'd1', 'me', 'asker'), ('r2', 'd2', 'asked', 'me')",
		"INSERT INTO blocks VALUES ('b1', 'me', 'pest'), ('b2', 'mate', 'far')",
		// a one-to-one of me and old (both since gone), one of far and mate
		"INSERT INTO channels VALUES ('d3', 'me:old'), ('d4', 'far:mate'), ('c1', '')",
	)
	ids := []any{"me", "mate", "left", "far", "asker", "asked", "pest", "old", "nobody"}
	got, err := mayKnow(db, "me", ids)
	if err != nil {
		t.Fatal(err)
	}
	names := []string{}
	for _, id := range got {
		names = append(names, id.(string))
	}
	sort.Strings(names)
	want := []string{"asker", "left", "mate", "me", "old", "pest"}
	if len(names) != len(want) {
		t.Fatalf("got %v, want %v", names, want)
	}
	for i := range want {
		if names[i] != want[i] {
			t.Fatalf("got %v, want %v", names, want)
		}
	}
	if none, err := mayKnow(db, "nobody", []any{"me", "mate", "far"}); err != nil || len(none) != 0 {
		t.Fatalf("a stranger may know %v (%v)", none, err)
	}
}

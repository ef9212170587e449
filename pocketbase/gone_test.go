package main

import (
	"sort"
	"testing"
)

// A deleted first message takes its thread's replies along: they are the ones named gone with it, and no
// other conversation's or thread's messages, nor the edits and reactions that point at it.
func TestRepliesOfAThreadGoWithItsFirstMessage(t *testing.T) {
	db := testDB(t,
		"CREATE TABLE IF NOT EXISTS messages (id TEXT PRIMARY KEY, thread TEXT DEFAULT '' NOT NULL, kind TEXT DEFAULT '' NOT NULL)",
		"INSERT INTO messages VALUES ('root', '', ''), ('r1', 'root', 'reply'), ('r2', 'root', 'reply'), ('e1', '', 'edit'), ('x1', 'other', 'reply'), ('other', '', '')",
	)
	got, err := repliesOf(db, "root")
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(got)
	if len(got) != 2 || got[0] != "r1" || got[1] != "r2" {
		t.Fatalf("got %v, want [r1 r2]", got)
	}
	if none, err := repliesOf(db, "r1"); err != nil || len(none) != 0 {
		t.Fatalf("a reply has no replies: %v %v", none, err)
	}
}

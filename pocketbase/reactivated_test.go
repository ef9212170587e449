package main

import (
	"sort"
	"testing"
)

// The one-to-ones told of a reactivation are those whose key names the person, on either side, and no
// other: not a group, not a key that only contains the id inside another.
func TestOneToOnesNameThePersonOnEitherSide(t *testing.T) {
	db := testDB(t,
		"CREATE TABLE IF NOT EXISTS channels (id TEXT PRIMARY KEY, direct_key TEXT DEFAULT '' NOT NULL)",
		"INSERT INTO channels VALUES ('d1', 'carol:zed'), ('d2', 'amy:carol'), ('d3', 'amy:zed'), ('d4', 'xcarol:zed'), ('d5', 'amy:carolx'), ('g1', '')",
	)
	got, err := oneToOnes(db, "carol")
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(got)
	if len(got) != 2 || got[0] != "d1" || got[1] != "d2" {
		t.Fatalf("got %v, want [d1 d2]", got)
	}
}

package main

import (
	"slices"
	"testing"
)

func TestUnreadByListsTheMembersWhoHadNotReadTheMessage(t *testing.T) {
	db := testDB(t,
		"CREATE TABLE channel_members (channel TEXT, user TEXT, created TEXT)",
		"CREATE TABLE read_positions (channel TEXT, user TEXT, last_read TEXT)",
		// bob sent it; ann read past it; cid read before it; dan never read (joined before it);
		// eve joined after it; fay is in another channel
		"INSERT INTO channel_members VALUES ('c', 'bob', '2026-12-01 08:00:00.000Z'), ('c', 'ann', '2026-12-01 08:00:00.000Z'), "+
			"('c', 'cid', '2026-12-01 08:00:00.000Z'), ('c', 'dan', '2026-12-01 08:00:00.000Z'), ('c', 'eve', '2026-12-01 10:00:00.000Z'), "+
			"('other', 'fay', '2026-12-01 08:00:00.000Z')",
		"INSERT INTO read_positions VALUES ('c', 'ann', '2026-12-01 09:30:00.000Z'), ('c', 'cid', '2026-12-01 08:30:00.000Z')",
	)
	ids, err := unreadBy(db, "c", "bob", "2026-12-01 09:00:00.000Z")
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(ids)
	if !slices.Equal(ids, []string{"cid", "dan"}) {
		t.Fatalf("unread by %v", ids)
	}
}

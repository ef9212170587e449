package main

import (
	"testing"

	"github.com/pocketbase/dbx"
)

// Messages created in the same millisecond are each on exactly one page, paging back or around one.
func TestHistoryPagesMessagesOfTheSameMillisecond(t *testing.T) {
	db, _ := historyDB(t, 10)
	var at struct {
		Created string `db:"created"`
	}
	if err := db.NewQuery("SELECT created FROM messages WHERE id = 'c00000000000005'").One(&at); err != nil {
		t.Fatal(err)
	}
	for _, id := range []string{"c0000000000005a", "c0000000000005b"} {
		if _, err := db.Insert("messages", dbx.Params{"id": id, "channel": "c", "sender": "u", "encrypted_content": "x", "created": at.Created, "kind": "", "target": ""}).Execute(); err != nil {
			t.Fatal(err)
		}
	}
	seen := map[string]int{}
	cursor := historyCursor{}
	for pages := 0; ; pages++ {
		page, err := readHistory(db, "c", cursor, 1, false)
		if err != nil || pages > 20 {
			t.Fatalf("page %d: %v", pages, err)
		}
		var oldest *historyMessage
		for i, m := range page.Messages {
			if m.Kind == "" {
				seen[m.ID]++
				if oldest == nil {
					oldest = &page.Messages[i]
				}
			}
		}
		if !page.HasMore {
			break
		}
		cursor = historyCursor{created: oldest.Created, id: oldest.ID}
	}
	if len(seen) != 12 {
		t.Fatalf("paging back one at a time saw %d of 12 messages: %v", len(seen), seen)
	}
	for id, n := range seen {
		if n != 1 {
			t.Fatalf("%s was on %d pages", id, n)
		}
	}
	// around the middle one of the three: all twelve, once each, in (created, id) order
	page, err := readAround(db, "c", "c0000000000005a", 200)
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, m := range page.Messages {
		if m.Kind == "" {
			ids = append(ids, m.ID)
		}
	}
	if len(ids) != 12 || ids[5] != "c00000000000005" || ids[6] != "c0000000000005a" || ids[7] != "c0000000000005b" {
		t.Fatalf("around a message of a shared millisecond: %v", ids)
	}
}

package main

import (
	"database/sql"
	"errors"
	"fmt"
	"testing"
)

func TestHistoryAroundAMessageIsOnePageWhereverItIs(t *testing.T) {
	counts := map[int]int{}
	for _, size := range []int{1000, 20000} {
		db, queries := historyDB(t, size)
		for _, target := range []int{5, size / 2, size - 3} {
			*queries = 0
			page, err := readAround(db, "c", fmt.Sprintf("c%014d", target), 200)
			if err != nil {
				t.Fatal(err)
			}
			counts[size] = *queries
			var messages []historyMessage
			for _, m := range page.Messages {
				if m.Kind == "" {
					messages = append(messages, m)
				}
			}
			// The target, the 99 before it and the 100 after it (fewer at either end), in order.
			from, to := max(0, target-99), min(size-1, target+100)
			if len(messages) != to-from+1 || messages[0].ID != fmt.Sprintf("c%014d", from) || messages[len(messages)-1].ID != fmt.Sprintf("c%014d", to) {
				t.Fatalf("size %d, around %d: %d messages from %s to %s", size, target, len(messages), messages[0].ID, messages[len(messages)-1].ID)
			}
			if page.HasMore != (from > 0) || page.HasNewer != (to < size-1) {
				t.Fatalf("size %d, around %d: hasMore %v, hasNewer %v", size, target, page.HasMore, page.HasNewer)
			}
			// Paging on from either end meets the window without a gap.
			if page.HasMore {
				older, err := readHistory(db, "c", historyCursor{created: messages[0].Created}, 1, false)
				if err != nil || older.Messages[0].ID != fmt.Sprintf("c%014d", from-1) {
					t.Fatalf("size %d, around %d: the page before is wrong (%v)", size, target, err)
				}
			}
		}
	}
	if counts[1000] != counts[20000] || counts[1000] != 7 {
		t.Fatalf("queries for a page around a message: %v (want 7 at every size)", counts)
	}
	// A message of another channel, an edit or an unknown id is not found.
	db, _ := historyDB(t, 100)
	for _, id := range []string{"o00000000000001", "rc0000000000001", "zzzzzzzzzzzzzzz"} {
		if _, err := readAround(db, "c", id, 200); !errors.Is(err, sql.ErrNoRows) {
			t.Fatalf("around %s: %v, want no rows", id, err)
		}
	}
}

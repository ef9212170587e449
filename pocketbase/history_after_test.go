package main

import (
	"fmt"
	"testing"
	"time"
)

func TestHistoryAfterAMomentIsEverythingStoredSinceInOrderAtAConstantCost(t *testing.T) {
	counts := map[int]int{}
	for _, size := range []int{1000, 20000} {
		db, queries := historyDB(t, size)
		// the last 150 seconds: messages size-150..size-1, with their reactions (every tenth), thread
		// replies (every hundredth) and parts (every fiftieth)
		since := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC).Add(time.Duration(size-150) * time.Second).Format("2006-01-02 15:04:05.000Z")
		*queries = 0
		page, err := readAfter(db, "c", since, 500)
		if err != nil {
			t.Fatal(err)
		}
		counts[size] = *queries
		kinds := map[string]int{}
		withParts := 0
		for i, m := range page.Messages {
			if m.Channel != "c" || m.Created < since {
				t.Fatalf("size %d: a record not of the channel since then: %+v", size, m)
			}
			if i > 0 && (m.Created < page.Messages[i-1].Created || (m.Created == page.Messages[i-1].Created && m.ID < page.Messages[i-1].ID)) {
				t.Fatalf("size %d: record %d out of order", size, i)
			}
			kinds[m.Kind]++
			if m.Expand != nil && len(m.Expand.Attachments) == 1 && len(m.Expand.Previews) == 1 {
				withParts++
			}
		}
		if kinds[""] != 150 || kinds["reaction"] != 15 || kinds["reply"] != 3 || withParts != 3 || page.HasMore {
			t.Fatalf("size %d: %v, %d with parts, hasMore %v", size, kinds, withParts, page.HasMore)
		}
		// a limit reached: the first ones, and more to come
		first, err := readAfter(db, "c", since, 10)
		if err != nil || len(first.Messages) != 10 || !first.HasMore || first.Messages[0].ID != page.Messages[0].ID {
			t.Fatalf("size %d: the first 10 (%v)", size, err)
		}
		// nothing since: an empty page, not null
		empty, err := readAfter(db, "c", "2099-01-01 00:00:00.000Z", 10)
		if err != nil || empty.Messages == nil || len(empty.Messages) != 0 || empty.HasMore {
			t.Fatalf("size %d: nothing since then (%v)", size, err)
		}
	}
	if counts[1000] != counts[20000] || counts[1000] > 3 {
		t.Fatalf("queries: %v", fmt.Sprint(counts))
	}
}

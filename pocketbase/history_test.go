package main

import (
	"context"
	"database/sql"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/pocketbase/dbx"
	"github.com/pocketbase/pocketbase/tests"
)

// The tables the history page reads, with the columns (NOT NULL with defaults, as PocketBase makes
// them) and indexes our migrations give them
// (pb_migrations/1795366040, 1795366050, 1795366060, 1795366300, 1795366420).
var historySchema = []string{
	"CREATE TABLE messages (id TEXT PRIMARY KEY, channel TEXT DEFAULT '' NOT NULL, sender TEXT DEFAULT '' NOT NULL, encrypted_content TEXT DEFAULT '' NOT NULL, created TEXT DEFAULT '' NOT NULL, kind TEXT DEFAULT '' NOT NULL, target TEXT DEFAULT '' NOT NULL, thread TEXT DEFAULT '' NOT NULL, epoch NUMERIC DEFAULT 0 NOT NULL)",
	"CREATE INDEX idx_messages_channel_created ON messages (channel, created)",
	"CREATE INDEX idx_messages_channel_kind_created ON messages (channel, kind, created)",
	"CREATE INDEX idx_messages_target ON messages (target)",
	"CREATE INDEX idx_messages_thread_created ON messages (thread, created)",
	"CREATE INDEX idx_messages_channel_epoch ON messages (channel, epoch)",
	"CREATE TABLE file_attachments (id TEXT PRIMARY KEY, message TEXT DEFAULT '' NOT NULL, channel TEXT DEFAULT '' NOT NULL, file_name TEXT DEFAULT '' NOT NULL, file_size NUMERIC DEFAULT 0 NOT NULL, file_type TEXT DEFAULT '' NOT NULL, storage_path TEXT DEFAULT '' NOT NULL, uploaded_by TEXT DEFAULT '' NOT NULL, file TEXT DEFAULT '' NOT NULL, created TEXT DEFAULT '' NOT NULL)",
	"CREATE INDEX idx_file_attachments_message ON file_attachments (message)",
	"CREATE TABLE link_previews (id TEXT PRIMARY KEY, message TEXT DEFAULT '' NOT NULL, channel TEXT DEFAULT '' NOT NULL, url TEXT DEFAULT '' NOT NULL, title TEXT DEFAULT '' NOT NULL, description TEXT DEFAULT '' NOT NULL, image_url TEXT DEFAULT '' NOT NULL, image TEXT DEFAULT '' NOT NULL, created TEXT DEFAULT '' NOT NULL)",
	"CREATE INDEX idx_link_previews_message ON link_previews (message)",
}

// historyDB is a fresh database with `size` messages in channel "c" (every 10th with a reaction, every
// 50th with a file and a preview, every 100th with a thread of three replies by "a" and "b") and 100
// in channel "other"; it counts the queries run on it.
func historyDB(t testing.TB, size int) (*dbx.DB, *int) {
	t.Helper()
	app, err := tests.NewTestApp()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(app.Cleanup)
	db, ok := app.NonconcurrentDB().(*dbx.DB)
	if !ok {
		t.Fatalf("app.NonconcurrentDB() is a %T", app.NonconcurrentDB())
	}
	for _, stmt := range historySchema {
		if _, err := db.NewQuery(strings.ReplaceAll(stmt, "CREATE TABLE ", "CREATE TABLE IF NOT EXISTS ")).Execute(); err != nil {
			t.Fatal(err)
		}
	}
	err = db.Transactional(func(tx *dbx.Tx) error {
		at := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
		add := func(table string, row dbx.Params) error {
			_, err := tx.Insert(table, row).Execute()
			return err
		}
		for _, channel := range []string{"c", "other"} {
			n := size
			if channel == "other" {
				n = 100
			}
			for i := 0; i < n; i++ {
				id := fmt.Sprintf("%s%014d", channel[:1], i)
				created := at.Add(time.Duration(i) * time.Second).Format("2006-01-02 15:04:05.000Z")
				if err := add("messages", dbx.Params{"id": id, "channel": channel, "sender": "u", "encrypted_content": "x", "created": created, "kind": "", "target": ""}); err != nil {
					return err
				}
				if i%10 == 0 {
					if err := add("messages", dbx.Params{"id": "r" + id, "channel": channel, "sender": "u", "encrypted_content": "y", "created": created, "kind": "reaction", "target": id}); err != nil {
						return err
					}
				}
				if i%100 == 0 {
					for r, sender := range []string{"a", "b", "a"} {
						reply := dbx.Params{"id": fmt.Sprintf("t%d%s", r, id[:13]), "channel": channel, "sender": sender, "encrypted_content": "z", "created": created, "kind": "reply", "target": "", "thread": id}
						if err := add("messages", reply); err != nil {
							return err
						}
					}
				}
				if i%50 == 0 {
					if err := add("file_attachments", dbx.Params{"id": "f" + id, "message": id, "channel": channel, "file_name": "n", "created": created}); err != nil {
						return err
					}
					if err := add("link_previews", dbx.Params{"id": "p" + id, "message": id, "channel": channel, "url": "u", "created": created}); err != nil {
						return err
					}
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	queries := 0
	db.QueryLogFunc = func(ctx context.Context, d time.Duration, sql string, rows *sql.Rows, err error) { queries++ }
	return db, &queries
}

func TestHistoryPageCostsTheSameQueriesWhateverTheChannelsSize(t *testing.T) {
	counts := map[int]int{}
	for _, size := range []int{1000, 20000} {
		db, queries := historyDB(t, size)
		page, err := readHistory(db, "c", historyCursor{}, 200, true)
		if err != nil {
			t.Fatal(err)
		}
		counts[size] = *queries
		if !page.HasMore || page.TotalItems == nil || *page.TotalItems != int64(size) {
			t.Fatalf("size %d: hasMore %v, total %v", size, page.HasMore, page.TotalItems)
		}
		// The newest 200 messages, oldest first, then their 20 reactions; 4 of them carry a file and a preview.
		if len(page.Messages) != 220 {
			t.Fatalf("size %d: %d records", size, len(page.Messages))
		}
		first, last := page.Messages[0], page.Messages[199]
		if first.ID != fmt.Sprintf("c%014d", size-200) || last.ID != fmt.Sprintf("c%014d", size-1) {
			t.Fatalf("size %d: page from %s to %s", size, first.ID, last.ID)
		}
		withParts := 0
		for i, m := range page.Messages {
			if m.Channel != "c" {
				t.Fatalf("a record of another channel: %+v", m)
			}
			if (i < 200) != (m.Kind == "") {
				t.Fatalf("record %d out of place: %+v", i, m)
			}
			if m.Expand != nil && len(m.Expand.Attachments) == 1 && len(m.Expand.Previews) == 1 {
				withParts++
			}
		}
		if withParts != 4 {
			t.Fatalf("size %d: %d messages with their file and preview", size, withParts)
		}
		// The page's two roots (every 100th message) with their replies counted; no reply in the page.
		if len(page.Threads) != 2 {
			t.Fatalf("size %d: threads %+v", size, page.Threads)
		}
		for _, th := range page.Threads {
			if th.Replies != 3 || strings.Join(th.People, ",") != "a,b" || th.Last == "" {
				t.Fatalf("size %d: thread %+v", size, th)
			}
		}
		// Paging back from the page's oldest message reaches the next 200.
		older, err := readHistory(db, "c", historyCursor{created: first.Created}, 200, false)
		if err != nil || len(older.Messages) < 200 || older.Messages[199].ID != fmt.Sprintf("c%014d", size-201) {
			t.Fatalf("size %d: the older page is wrong (%v)", size, err)
		}
	}
	if counts[1000] != counts[20000] || counts[1000] != 6 {
		t.Fatalf("queries for one page: %v (want 6 at every size: messages, annotations, files, previews, threads, count)", counts)
	}
}

func TestHistoryPageQueriesUseTheirIndexes(t *testing.T) {
	db, _ := historyDB(t, 100)
	plans := map[string]string{
		"SELECT id FROM messages WHERE channel = 'c' AND kind = '' ORDER BY created DESC, id DESC LIMIT 201":                   "idx_messages_channel_kind_created",
		"SELECT id FROM messages WHERE target IN ('c1', 'c2') AND +channel = 'c' AND kind != '' ORDER BY created, id":          "idx_messages_target",
		"SELECT id FROM file_attachments WHERE message IN ('c1', 'c2') ORDER BY created, id":                                   "idx_file_attachments_message",
		"SELECT id FROM link_previews WHERE message IN ('c1', 'c2') ORDER BY created, id":                                      "idx_link_previews_message",
		"SELECT thread, COUNT(*) FROM messages WHERE thread IN ('c1', 'c2') AND (kind = '' OR kind = 'reply') GROUP BY thread": "idx_messages_thread_created",
	}
	for query, index := range plans {
		var rows []struct {
			Detail string `db:"detail"`
		}
		if err := db.NewQuery("EXPLAIN QUERY PLAN " + query).All(&rows); err != nil {
			t.Fatal(err)
		}
		var plan []string
		for _, r := range rows {
			plan = append(plan, r.Detail)
		}
		text := strings.Join(plan, "; ")
		if !strings.Contains(text, index) || strings.Contains(text, "SCAN messages") {
			t.Fatalf("%s\n  plan: %s (want %s, no scan)", query, text, index)
		}
	}
}

// go test -bench History -run ^$ : one page (200 messages with their reactions, files and previews)
// at 1,000 and at 100,000 messages in the channel.
func BenchmarkHistoryPage(b *testing.B) {
	for _, size := range []int{1000, 100000} {
		db, _ := historyDB(b, size)
		b.Run(fmt.Sprintf("%d messages", size), func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				if _, err := readHistory(db, "c", historyCursor{}, 200, false); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

package main

import (
	"fmt"
	"testing"
	"time"

	"github.com/pocketbase/dbx"
	"github.com/pocketbase/pocketbase/tests"
)

// The console's count of what a shorter period deletes: the sweep's selection (kinds, pinned kept,
// each channel's own shorter period where allowed), counting messages and thread replies only.
func TestExpiringMessages(t *testing.T) {
	app, err := tests.NewTestApp()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(app.Cleanup)
	now := time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)
	ago := func(days int) string {
		return now.Add(-time.Duration(days) * 24 * time.Hour).Format("2006-01-02 15:04:05.000Z")
	}
	for _, stmt := range []string{
		"CREATE TABLE channels (id TEXT PRIMARY KEY, retention_days NUMERIC DEFAULT 0 NOT NULL)",
		"CREATE TABLE workspace_settings (id TEXT PRIMARY KEY, retention_days NUMERIC DEFAULT 0 NOT NULL, retention_per_channel BOOLEAN DEFAULT FALSE NOT NULL, retention_keep_pinned BOOLEAN DEFAULT FALSE NOT NULL)",
		"CREATE TABLE messages (id TEXT PRIMARY KEY, channel TEXT DEFAULT '' NOT NULL, created TEXT DEFAULT '' NOT NULL, kind TEXT DEFAULT '' NOT NULL, target TEXT DEFAULT '' NOT NULL, thread TEXT DEFAULT '' NOT NULL)",
		"INSERT INTO channels (id, retention_days) VALUES ('a', 0), ('b', 7)",
		"INSERT INTO workspace_settings (id, retention_days, retention_per_channel) VALUES ('workspace000001', 0, TRUE)",
	} {
		if _, err := app.DB().NewQuery(stmt).Execute(); err != nil {
			t.Fatal(err)
		}
	}
	add := func(id, channel string, days int, kind, target, thread string) {
		t.Helper()
		row := dbx.Params{"id": id, "channel": channel, "created": ago(days), "kind": kind, "target": target, "thread": thread}
		if _, err := app.DB().Insert("messages", row).Execute(); err != nil {
			t.Fatal(err)
		}
	}
	// channel a: 40, 20 and 1 day old; the oldest with a reaction, an edit and a thread reply 35 days old
	for i, days := range []int{40, 20, 1} {
		add(fmt.Sprintf("a%d", i), "a", days, "", "", "")
	}
	add("a0r", "a", 39, "reaction", "a0", "")
	add("a0e", "a", 39, "edit", "a0", "")
	add("a0t", "a", 35, "reply", "", "a0")
	add("a0n", "a", 2, "reply", "", "a0") // recent, but it goes with its thread's first message
	// channel b (its own 7 days): 10 and 3 days old, the older one pinned
	add("b0", "b", 10, "", "", "")
	add("b1", "b", 3, "", "", "")
	add("b0p", "b", 9, "pin", "b0", "")
	add("b0t", "b", 9, "reply", "", "b0") // the pinned message's thread: kept with it when pinned ones are
	add("b0tr", "b", 9, "reaction", "b0t", "")

	count := func(days int, keepPinned bool) int {
		t.Helper()
		n, err := expiringMessages(app, days, keepPinned, now)
		if err != nil {
			t.Fatal(err)
		}
		return n
	}
	// 30 days: a's message of 40 days and its two replies; b's own 7 days: its message of 10 and its reply
	if got := count(30, false); got != 5 {
		t.Errorf("30 days: %d, want 5", got)
	}
	// pinned kept: b's pinned message stays, and its thread
	if got := count(30, true); got != 3 {
		t.Errorf("30 days, pinned kept: %d, want 3", got)
	}
	// 5 days: shorter than b's own: a's 40, 20 and the replies; b's 10 and its reply
	if got := count(5, false); got != 6 {
		t.Errorf("5 days: %d, want 6", got)
	}
	// with channel settings not allowed, b follows the workspace: at 30 days nothing of b goes
	if _, err := app.DB().NewQuery("UPDATE workspace_settings SET retention_per_channel = FALSE").Execute(); err != nil {
		t.Fatal(err)
	}
	if got := count(30, false); got != 3 {
		t.Errorf("30 days without channel settings: %d, want 3", got)
	}
	// a channel admin's own period for a channel: that channel only, the workspace's "keep pinned" applying
	inChannel := func(channel string, days int) int {
		t.Helper()
		n, err := expiringInChannel(app, channel, days, now)
		if err != nil {
			t.Fatal(err)
		}
		return n
	}
	if _, err := app.DB().NewQuery("UPDATE workspace_settings SET retention_per_channel = TRUE").Execute(); err != nil {
		t.Fatal(err)
	}
	if got := inChannel("a", 7); got != 4 { // 40, 20 and the replies of 35 and 2 days
		t.Errorf("channel a, 7 days: %d, want 4", got)
	}
	if got := inChannel("b", 2); got != 3 {
		t.Errorf("channel b, 2 days: %d, want 3", got)
	}
	if got := inChannel("a", 0); got != 0 { // the workspace's: forever
		t.Errorf("channel a, the workspace's forever: %d, want 0", got)
	}
	if _, err := app.DB().NewQuery("UPDATE workspace_settings SET retention_keep_pinned = TRUE").Execute(); err != nil {
		t.Fatal(err)
	}
	if got := inChannel("b", 2); got != 1 { // b0 is pinned, its thread with it
		t.Errorf("channel b, 2 days, pinned kept: %d, want 1", got)
	}
}

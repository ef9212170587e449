package main

import (
	"testing"

	"github.com/pocketbase/dbx"
	"github.com/pocketbase/pocketbase/tests"
	"github.com/pocketbase/pocketbase/tools/types"
)

// The hourly cleanup keeps each account's latest expired session activity before it deletes them:
// a later one replaces an earlier, never the other way round, and sessions still valid are not read.
func TestKeepLastSeenOfExpired(t *testing.T) {
	app, err := tests.NewTestApp()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(app.Cleanup)
	for _, stmt := range []string{
		"ALTER TABLE users ADD COLUMN last_seen TEXT DEFAULT '' NOT NULL",
		"CREATE TABLE " + sessionsTable + " (id TEXT PRIMARY KEY, user TEXT NOT NULL, last_seen TEXT NOT NULL, expires TEXT NOT NULL)",
	} {
		if _, err := app.DB().NewQuery(stmt).Execute(); err != nil {
			t.Fatal(err)
		}
	}
	var ids []string
	if err := app.DB().NewQuery("SELECT id FROM users ORDER BY id LIMIT 2").Column(&ids); err != nil || len(ids) < 2 {
		t.Fatalf("test users: %v %v", ids, err)
	}
	a, b := ids[0], ids[1]
	if _, err := app.DB().NewQuery("UPDATE users SET last_seen = '2026-11-30 10:00:00.000Z' WHERE id = {:b}").Bind(dbx.Params{"b": b}).Execute(); err != nil {
		t.Fatal(err)
	}
	for _, row := range []struct{ id, user, seen, expires string }{
		{"s1", a, "2026-11-20 08:00:00.000Z", "2026-11-25 00:00:00.000Z"},
		{"s2", a, "2026-11-21 09:00:00.000Z", "2026-11-26 00:00:00.000Z"},
		{"s3", a, "2026-12-01 09:00:00.000Z", "2099-01-01 00:00:00.000Z"}, // still valid: not the cleanup's
		{"s4", b, "2026-11-22 09:00:00.000Z", "2026-11-27 00:00:00.000Z"}, // older than what b's account keeps
	} {
		if _, err := app.DB().Insert(sessionsTable, dbx.Params{"id": row.id, "user": row.user, "last_seen": row.seen, "expires": row.expires}).Execute(); err != nil {
			t.Fatal(err)
		}
	}
	now, _ := types.ParseDateTime("2026-12-01 10:00:00.000Z")
	if err := keepLastSeenOfExpired(app, now); err != nil {
		t.Fatal(err)
	}
	for user, want := range map[string]string{a: "2026-11-21 09:00:00.000Z", b: "2026-11-30 10:00:00.000Z"} {
		var got string
		if err := app.DB().NewQuery("SELECT last_seen FROM users WHERE id = {:id}").Bind(dbx.Params{"id": user}).Row(&got); err != nil {
			t.Fatal(err)
		}
		if got != want {
			t.Errorf("user %s: last_seen %q, want %q", user, got, want)
		}
	}
}

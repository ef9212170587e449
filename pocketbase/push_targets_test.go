package main

import (
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/pocketbase/dbx"
	"github.com/pocketbase/pocketbase/core"
	"github.com/pocketbase/pocketbase/tests"
)

// targetsApp is a test app with the two tables push targets read: channel_members and notify_rules.
func targetsApp(t testing.TB) *tests.TestApp {
	t.Helper()
	app, err := tests.NewTestApp()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(app.Cleanup)
	// notify_rules is a collection: saving its records runs the hooks that keep the rules index current
	rules := core.NewBaseCollection("notify_rules")
	rules.Fields.Add(&core.TextField{Name: "owner", Required: true}, &core.JSONField{Name: "rules", MaxSize: 65536})
	rules.AddIndex("idx_nr", true, "owner", "")
	if err := app.Save(rules); err != nil {
		t.Fatal(err)
	}
	for _, stmt := range []string{
		"CREATE TABLE IF NOT EXISTS channel_members (id TEXT PRIMARY KEY, channel TEXT NOT NULL, user TEXT NOT NULL)",
		"CREATE UNIQUE INDEX IF NOT EXISTS idx_cm ON channel_members (channel, user)",
	} {
		if _, err := app.DB().NewQuery(stmt).Execute(); err != nil {
			t.Fatal(err)
		}
	}
	return app
}

// targetsChannel adds `count` members (u00000, u00001, ...) to a new channel and returns its record.
func targetsChannel(t testing.TB, app core.App, id string, count int, direct bool) *core.Record {
	t.Helper()
	err := app.RunInTransaction(func(tx core.App) error {
		for i := 0; i < count; i++ {
			user := fmt.Sprintf("u%05d", i)
			if _, err := tx.DB().Insert("channel_members", dbx.Params{"id": id + user, "channel": id, "user": user}).Execute(); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	collection := core.NewBaseCollection("channels")
	collection.Fields.Add(&core.BoolField{Name: "direct"})
	record := core.NewRecord(collection)
	record.Id = id
	record.Set("direct", direct)
	return record
}

func setRules(t *testing.T, app core.App, owner, rules string) {
	t.Helper()
	if _, err := app.DB().Insert("notify_rules", dbx.Params{"id": "r" + owner, "owner": owner, "rules": rules}).Execute(); err != nil {
		t.Fatal(err)
	}
}

// A channel with more members than SQLite takes parameters in one query (32,766): a member whose own
// rules ask for every message still gets one. The rules used to be read with one parameter per member
// without an open page; in a channel this large that query failed and everyone fell back to the
// default (mentions only).
func TestPushTargetsInAChannelOfFortyThousand(t *testing.T) {
	app := targetsApp(t)
	channel := targetsChannel(t, app, "bigchannel00001", 40_000, false)
	setRules(t, app, "u00007", `{"conversations":{"bigchannel00001":{"level":"all"}}}`)
	setRules(t, app, "u00008", `{"conversations":{"bigchannel00001":{"level":"nothing"}}}`)
	s := newPushSender(app, nil)
	now := time.Date(2026, 11, 26, 9, 0, 0, 0, time.UTC)

	got := s.targets("u00000", []string{"u00008", "u00010", "u99999"}, channel, channel.Id, now)
	// u00007: "all"; u00010: mentioned (default); u00008: mentioned but "nothing"; u99999: no member
	if want := []string{"u00007", "u00010"}; !slices.Equal(got, want) {
		t.Fatalf("targets = %v, want %v", got, want)
	}
	// within pushEvery, the same conversation pushes no one again
	if again := s.targets("u00000", []string{"u00010"}, channel, channel.Id, now.Add(time.Second)); len(again) != 0 {
		t.Fatalf("targets again = %v, want none", again)
	}
}

// A direct conversation pushes every other member by default, not the sender, not a muted member.
func TestPushTargetsInADirectConversation(t *testing.T) {
	app := targetsApp(t)
	channel := targetsChannel(t, app, "direct000000001", 3, true)
	setRules(t, app, "u00002", `{"conversations":{"direct000000001":{"level":"all","mutedUntil":4102444800000}}}`)
	s := newPushSender(app, nil)
	got := s.targets("u00000", nil, channel, channel.Id, time.Date(2026, 11, 26, 9, 0, 0, 0, time.UTC))
	if want := []string{"u00001"}; !slices.Equal(got, want) {
		t.Fatalf("targets = %v, want %v", got, want)
	}
}

package main

import (
	"context"
	"database/sql"
	"fmt"
	"slices"
	"sync/atomic"
	"testing"
	"time"

	"github.com/pocketbase/dbx"
	"github.com/pocketbase/pocketbase/core"
)

// countQueries counts the SELECTs the app runs from now on.
func countQueries(t *testing.T, app core.App) *atomic.Int64 {
	t.Helper()
	var n atomic.Int64
	for _, builder := range []dbx.Builder{app.ConcurrentDB(), app.NonconcurrentDB()} {
		db, ok := builder.(*dbx.DB)
		if !ok {
			t.Fatalf("unexpected database type %T", builder)
		}
		previous := db.QueryLogFunc
		db.QueryLogFunc = func(ctx context.Context, d time.Duration, q string, rows *sql.Rows, err error) {
			n.Add(1)
			if previous != nil {
				previous(ctx, d, q, rows, err)
			}
		}
	}
	return &n
}

// indexedTargets is a push sender whose rules index follows the app's notify_rules records, and a
// channel of `count` members.
func indexedTargets(t *testing.T, channelID string, count int) (core.App, *core.Record, *pushSender) {
	t.Helper()
	app := targetsApp(t)
	channel := targetsChannel(t, app, channelID, count, false)
	s := newPushSender(app, nil)
	s.rules.bind(app)
	return app, channel, s
}

// A message in a channel of 10,000 that mentions no one reads nothing per message (no member has
// asked for every message): the push decision used to read all 10,000 memberships with their
// rules for every message, most of PocketBase's work per message at that size.
func TestPushTargetsReadNoMembershipPerMessage(t *testing.T) {
	app, channel, s := indexedTargets(t, "tenthousand0001", 10_000)
	now := time.Date(2026, 11, 26, 9, 0, 0, 0, time.UTC)
	s.targets("u00000", nil, channel, channel.Id, now) // reads the rules index once

	queries := countQueries(t, app)
	for i := range 20 {
		if got := s.targets("u00001", nil, channel, channel.Id, now.Add(time.Duration(i)*time.Second)); len(got) != 0 {
			t.Fatalf("targets = %v, want none", got)
		}
	}
	if n := queries.Load(); n != 0 {
		t.Fatalf("20 messages ran %d queries, want 0", n)
	}

	// a mention reads that member's membership and rules, by id: one query
	if got := s.targets("u00001", []string{"u09999"}, channel, channel.Id, now); !slices.Equal(got, []string{"u09999"}) {
		t.Fatalf("targets = %v, want [u09999]", got)
	}
	if n := queries.Load(); n != 1 {
		t.Fatalf("a message with one mention ran %d queries, want 1", n)
	}
}

// A member who sets a channel to "all" gets its next message without a mention, and no longer once
// they set it back or delete their rules; the index follows every change at once.
func TestPushTargetsFollowRulesChanges(t *testing.T) {
	app, channel, s := indexedTargets(t, "ruleschanged001", 100)
	at := time.Date(2026, 11, 26, 9, 0, 0, 0, time.UTC)
	next := func() []string {
		at = at.Add(time.Minute) // past pushEvery
		return s.targets("u00000", nil, channel, channel.Id, at)
	}
	if got := next(); len(got) != 0 {
		t.Fatalf("targets before any rules = %v", got)
	}

	collection, err := app.FindCollectionByNameOrId("notify_rules")
	if err != nil {
		t.Fatal(err)
	}
	save := func(record *core.Record, rules string) {
		t.Helper()
		record.Set("rules", rules)
		if err := app.Save(record); err != nil {
			t.Fatal(err)
		}
	}
	all := `{"conversations":{"ruleschanged001":{"level":"all"}}}`
	five := core.NewRecord(collection)
	five.Set("owner", "u00005")
	save(five, all)
	outsider := core.NewRecord(collection) // not a member of the channel
	outsider.Set("owner", "u99999")
	save(outsider, all)
	if got := next(); !slices.Equal(got, []string{"u00005"}) {
		t.Fatalf("targets after u00005 chose all = %v, want [u00005]", got)
	}

	save(five, `{"conversations":{"ruleschanged001":{"level":"mentions"}}}`)
	if got := next(); len(got) != 0 {
		t.Fatalf("targets after u00005 chose mentions = %v, want none", got)
	}

	save(five, all)
	if got := next(); !slices.Equal(got, []string{"u00005"}) {
		t.Fatalf("targets after u00005 chose all again = %v, want [u00005]", got)
	}
	if err := app.Delete(five); err != nil {
		t.Fatal(err)
	}
	if got := next(); len(got) != 0 {
		t.Fatalf("targets after u00005's rules were deleted = %v, want none", got)
	}
}

// The sender is never a target, even when their own rules ask for every message.
func TestPushTargetsNeverTheSender(t *testing.T) {
	app := targetsApp(t)
	channel := targetsChannel(t, app, "senderrules0001", 10, false)
	setRules(t, app, "u00003", `{"conversations":{"senderrules0001":{"level":"all"}}}`)
	s := newPushSender(app, nil)
	now := time.Date(2026, 11, 26, 9, 0, 0, 0, time.UTC)
	if got := s.targets("u00003", []string{"u00003"}, channel, channel.Id, now); len(got) != 0 {
		t.Fatalf("targets = %v, want none", got)
	}
}

// go test -run '^$' -bench PushTargets: the push decision's cost per message in a channel of
// 10,000 and of 20,000 members, none mentioned, nobody asking for every message.
func BenchmarkPushTargets(b *testing.B) {
	for _, size := range []int{10_000, 20_000} {
		b.Run(fmt.Sprint(size), func(b *testing.B) {
			app := targetsApp(b)
			channel := targetsChannel(b, app, fmt.Sprintf("bench%010d", size), size, false)
			s := newPushSender(app, nil)
			now := time.Date(2026, 11, 26, 9, 0, 0, 0, time.UTC)
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				s.targets("u00000", nil, channel, channel.Id, now)
			}
		})
	}
}

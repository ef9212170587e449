package main

import (
	"sync"
	"time"

	"github.com/pocketbase/dbx"
	"github.com/pocketbase/pocketbase/core"
)

// Channel members, as the live events need them (one lookup per message, attachment, preview or
// membership change). A cached list is dropped whenever a membership of its channel is created,
// changed or deleted (after the change is committed, before the request that made it answers), so
// an event sent after a member left never lists them. A lookup that started before such a change
// is not cached (generation check), and entries expire after memberCacheTTL in case the table is
// ever changed behind PocketBase's back.
const memberCacheTTL = time.Minute

type memberEntry struct {
	ids []string
	at  time.Time
}

type memberCache struct {
	mu      sync.Mutex
	gen     map[string]uint64
	entries map[string]memberEntry
}

var members = &memberCache{gen: map[string]uint64{}, entries: map[string]memberEntry{}}

// of returns the ids of the channel's members now. The slice is shared: do not modify it.
func (m *memberCache) of(app core.App, channelID string) ([]string, error) {
	m.mu.Lock()
	entry, ok := m.entries[channelID]
	gen := m.gen[channelID]
	m.mu.Unlock()
	if ok && time.Since(entry.at) < memberCacheTTL {
		return entry.ids, nil
	}

	var ids []string
	err := app.DB().Select("user").From("channel_members").Where(dbx.HashExp{"channel": channelID}).Column(&ids)
	if err != nil {
		return nil, err
	}
	m.mu.Lock()
	if m.gen[channelID] == gen {
		m.entries[channelID] = memberEntry{ids: ids, at: time.Now()}
	}
	m.mu.Unlock()
	return ids, nil
}

func (m *memberCache) forget(channelID string) {
	m.mu.Lock()
	m.gen[channelID]++
	delete(m.entries, channelID)
	m.mu.Unlock()
}

// registerMemberCache must be called before the live event hooks are bound (broadcast.go), so that
// the events of a membership change already see the new members.
func registerMemberCache(app core.App) {
	forget := func(e *core.RecordEvent) error {
		members.forget(e.Record.GetString("channel"))
		return e.Next()
	}
	app.OnRecordAfterCreateSuccess("channel_members").BindFunc(forget)
	app.OnRecordAfterUpdateSuccess("channel_members").BindFunc(forget)
	app.OnRecordAfterDeleteSuccess("channel_members").BindFunc(forget)
	app.OnRecordAfterDeleteSuccess("channels").BindFunc(func(e *core.RecordEvent) error {
		members.forget(e.Record.Id)
		return e.Next()
	})
}

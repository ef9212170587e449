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
	ids    []string
	at     time.Time
	serial uint64 // unique per cached list: the relay names a web process's copy of it by this
}

type memberCache struct {
	mu      sync.Mutex
	gen     map[string]uint64
	entries map[string]memberEntry
	serial  uint64
}

var members = &memberCache{gen: map[string]uint64{}, entries: map[string]memberEntry{}}

// of returns the ids of the channel's members now. The slice is shared: do not modify it.
func (m *memberCache) of(app core.App, channelID string) ([]string, error) {
	ids, _, err := m.list(app, channelID)
	return ids, err
}

// list is `of` with the cached list's serial: the same serial means the same ids; 0 when the list
// was read while the channel's members changed (not cached).
func (m *memberCache) list(app core.App, channelID string) ([]string, uint64, error) {
	m.mu.Lock()
	entry, ok := m.entries[channelID]
	gen := m.gen[channelID]
	m.mu.Unlock()
	if ok && time.Since(entry.at) < memberCacheTTL {
		return entry.ids, entry.serial, nil
	}

	var ids []string
	err := app.DB().Select("user").From("channel_members").Where(dbx.HashExp{"channel": channelID}).Column(&ids)
	if err != nil {
		return nil, 0, err
	}
	var serial uint64
	m.mu.Lock()
	if m.gen[channelID] == gen {
		m.serial++
		serial = m.serial
		m.entries[channelID] = memberEntry{ids: ids, at: time.Now(), serial: serial}
	}
	m.mu.Unlock()
	return ids, serial, nil
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

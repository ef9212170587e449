package main

import (
	"sync"
	"time"

	"github.com/pocketbase/dbx"
	"github.com/pocketbase/pocketbase/apis"
	"github.com/pocketbase/pocketbase/core"
)

// Who a message could notify, found without looking at every member of its channel. In a channel,
// a member who is not mentioned wants a message only when their rules set the channel's level to
// "all" (the default there is "mentions", push_rules.go); so the candidates are the mentioned members
// and those who chose "all", which an in-memory index of notify_rules names (wantsAll). Only the
// candidates' memberships and rules are then read, by id. A direct conversation (at most 12 people)
// notifies everyone by default: all its members are candidates.
//
// Reading every member's rules with the channel's members for each message cost PocketBase a scan
// of the whole membership: 2.7 ms of CPU per message at 10,000 members, 5.2 ms at 20,000, more than
// half of its work per message in the capacity ramp (BenchmarkPushTargets, ADR 37).

// rulesIndexTTL: the hooks keep the index current; it is read again from the table this often in
// case notify_rules is ever changed behind PocketBase's back.
const rulesIndexTTL = 10 * time.Minute

// candidateChunk bounds the ids read in one query (SQLite takes at most 32,766 parameters).
const candidateChunk = 500

type rulesIndex struct {
	mu     sync.Mutex
	gen    uint64 // changes with every rules change seen by the hooks
	at     time.Time
	loaded bool
	// conversation -> rules record id -> owner, for the rules that set the conversation to "all"
	all map[string]map[string]string
	// rules record id -> the conversations it sets to "all" (to take them out again on a change)
	byRecord map[string][]string
}

func newRulesIndex() *rulesIndex {
	return &rulesIndex{all: map[string]map[string]string{}, byRecord: map[string][]string{}}
}

// allLevel returns the conversations the rules set to "all".
func allLevel(rules notifyRules) []string {
	var out []string
	for conversation, rule := range rules.Conversations {
		if rule.Level == "all" {
			out = append(out, conversation)
		}
	}
	return out
}

// put records (or, with owner "", removes) one rules record's "all" conversations; mu held.
func (x *rulesIndex) put(recordID, owner string, conversations []string) {
	for _, conversation := range x.byRecord[recordID] {
		if set := x.all[conversation]; set != nil {
			delete(set, recordID)
			if len(set) == 0 {
				delete(x.all, conversation)
			}
		}
	}
	delete(x.byRecord, recordID)
	if owner == "" || len(conversations) == 0 {
		return
	}
	x.byRecord[recordID] = conversations
	for _, conversation := range conversations {
		if x.all[conversation] == nil {
			x.all[conversation] = map[string]string{}
		}
		x.all[conversation][recordID] = owner
	}
}

// bind keeps the index current with every rules record created, changed or deleted.
func (x *rulesIndex) bind(app core.App) {
	changed := func(e *core.RecordEvent) error {
		x.change(e.Record.Id, e.Record.GetString("owner"), allLevel(parseNotifyRules([]byte(e.Record.GetString("rules")))))
		return e.Next()
	}
	app.OnRecordAfterCreateSuccess("notify_rules").BindFunc(changed)
	app.OnRecordAfterUpdateSuccess("notify_rules").BindFunc(changed)
	app.OnRecordAfterDeleteSuccess("notify_rules").BindFunc(func(e *core.RecordEvent) error {
		x.change(e.Record.Id, "", nil)
		return e.Next()
	})
}

func (x *rulesIndex) change(recordID, owner string, conversations []string) {
	x.mu.Lock()
	defer x.mu.Unlock()
	x.gen++
	if x.loaded {
		x.put(recordID, owner, conversations)
	}
}

// wantsAll returns the owners of the rules that set the conversation to "all".
func (x *rulesIndex) wantsAll(app core.App, conversation string) ([]string, error) {
	if err := x.load(app); err != nil {
		return nil, err
	}
	x.mu.Lock()
	defer x.mu.Unlock()
	out := make([]string, 0, len(x.all[conversation]))
	for _, owner := range x.all[conversation] {
		out = append(out, owner)
	}
	return out, nil
}

// load reads the whole table when the index is not loaded or too old. A change seen while it
// reads means the read may have missed it: the index then stays unloaded and the next use reads again.
func (x *rulesIndex) load(app core.App) error {
	x.mu.Lock()
	if x.loaded && time.Since(x.at) < rulesIndexTTL {
		x.mu.Unlock()
		return nil
	}
	gen := x.gen
	x.mu.Unlock()

	var rows []struct {
		ID    string `db:"id"`
		Owner string `db:"owner"`
		Rules string `db:"rules"`
	}
	if err := app.DB().NewQuery("SELECT id, owner, rules FROM notify_rules").All(&rows); err != nil {
		return err
	}
	fresh := newRulesIndex()
	for _, row := range rows {
		fresh.put(row.ID, row.Owner, allLevel(parseNotifyRules([]byte(row.Rules))))
	}

	x.mu.Lock()
	defer x.mu.Unlock()
	x.all, x.byRecord = fresh.all, fresh.byRecord
	x.loaded = x.gen == gen
	x.at = time.Now()
	return nil
}

// candidateRules reads which of the users are members of the channel, with their rules (none: the
// defaults), by id.
func candidateRules(app core.App, channelID string, users []string) (map[string]notifyRules, error) {
	out := make(map[string]notifyRules, len(users))
	for start := 0; start < len(users); start += candidateChunk {
		chunk := users[start:min(start+candidateChunk, len(users))]
		ids := make([]any, len(chunk))
		for i, id := range chunk {
			ids[i] = id
		}
		var rows []struct {
			User  string `db:"user"`
			Rules string `db:"rules"`
		}
		err := app.DB().Select("m.user AS user", "COALESCE(r.rules, '') AS rules").
			From("channel_members m").
			LeftJoin("notify_rules r", dbx.NewExp("r.owner = m.user")).
			Where(dbx.HashExp{"m.channel": channelID}).
			AndWhere(dbx.In("m.user", ids...)).
			All(&rows)
		if err != nil {
			return nil, err
		}
		for _, row := range rows {
			out[row.User] = parseNotifyRules([]byte(row.Rules))
		}
	}
	return out, nil
}

// openPages answers whether a user has a page open: a live stream through a web process (the relay)
// or a realtime subscription to their messages. The realtime clients are looked at once, on the
// first question.
func openPages(app core.App) func(userID string) bool {
	var subscribed map[string]bool
	return func(userID string) bool {
		if relay.hasUser(userID) {
			return true
		}
		if subscribed == nil {
			subscribed = map[string]bool{}
			for _, client := range app.SubscriptionsBroker().Clients() {
				if !client.HasSubscription(messagesTopic) {
					continue
				}
				if auth, _ := client.Get(apis.RealtimeClientAuthKey).(*core.Record); auth != nil && auth.Collection().Name == "users" {
					subscribed[auth.Id] = true
				}
			}
		}
		return subscribed[userID]
	}
}

// hasUser reports whether any web process has the user registered (a page of theirs is open).
func (h *relayHub) hasUser(userID string) bool {
	h.mu.RLock()
	defer h.mu.RUnlock()
	for _, c := range h.conns {
		c.mu.RLock()
		n := c.users[userID]
		c.mu.RUnlock()
		if n > 0 {
			return true
		}
	}
	return false
}

package main

import (
	"slices"
	"sync"
	"time"
)

// Whether a direct conversation's call was answered (docs/decisions/0070-call-records-from-the-server.md,
// addendum "a call nobody answered"). The pages tell PocketBase when they join a call (calls.go), the
// caller's with `ring`; when the call's record ends (call_records.go) and nobody but the caller ever
// joined, the record keeps who placed it (`unanswered_caller`): the callee's conversation shows
// "Missed call from <name>", the caller's "Call not answered". Those who declined its ring are kept
// with it (`declined_by`): theirs says "Declined call from <name>", the caller's "Call declined by
// <names>". Who answered is not kept, only that someone did. Kept in memory only: a call going on while PocketBase restarts ends as a plain record.
type callAnswers struct {
	mu    sync.Mutex
	calls map[string]*answering // by conversation id
}

type answering struct {
	caller   string   // the user whose page rang the others ("" when the call began without a ring)
	answered bool     // someone else joined
	declined []string // the others who declined the ring (in the order they did)
	since    time.Time
}

// a call's answers that no record ever took (a page that said it joined a call LiveKit never saw)
const callAnswersKept = 24 * time.Hour

var answers *callAnswers

func newCallAnswers() *callAnswers { return &callAnswers{calls: map[string]*answering{}} }

// joined notes that the user's page joined the conversation's call (`ring`: it started it and rang).
func (a *callAnswers) joined(channel, user string, ring bool, now time.Time) {
	if a == nil {
		return
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	call := a.calls[channel]
	if call == nil {
		call = &answering{since: now}
		if ring {
			call.caller = user
		} else {
			// (joined a call that began without a ring, or before this process: nobody to miss it)
			call.answered = true
		}
		a.calls[channel] = call
		return
	}
	if user != call.caller {
		call.answered = true
	} else if ring {
		// (the caller rang again before the room closed: a decline of the ring before is not this one's)
		call.declined = nil
	}
}

// decline notes that the user's page declined the ring of the conversation's call (not the caller's:
// their other device declining is no answer of anyone else).
func (a *callAnswers) decline(channel, user string) {
	if a == nil {
		return
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	call := a.calls[channel]
	if call == nil || call.caller == "" || user == call.caller || slices.Contains(call.declined, user) {
		return
	}
	call.declined = append(call.declined, user)
}

// take answers who placed the conversation's call that ended (last seen at `seen`) when nobody else
// joined it, else "", with those who declined its ring, and forgets that call. A call announced
// after `seen` is a new one: kept.
func (a *callAnswers) take(channel string, seen time.Time) (string, []string) {
	if a == nil {
		return "", nil
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	call := a.calls[channel]
	if call == nil || call.since.After(seen) {
		return "", nil
	}
	delete(a.calls, channel)
	if call.answered {
		return "", nil
	}
	return call.caller, call.declined
}

// forget drops what no record took for a day.
func (a *callAnswers) forget(now time.Time) {
	if a == nil {
		return
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	for channel, call := range a.calls {
		if now.Sub(call.since) > callAnswersKept {
			delete(a.calls, channel)
		}
	}
}

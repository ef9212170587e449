package main

import (
	"sync"
	"time"
)

// onceEvery lets each key pass at most once every `every` (a push per person and conversation, a
// typing event per person and channel, a notification mail per person and conversation). It forgets
// keys whose time is up once it holds more than 100,000.
type onceEvery struct {
	every time.Duration
	mu    sync.Mutex
	last  map[string]time.Time
}

func newOnceEvery(every time.Duration) *onceEvery {
	return &onceEvery{every: every, last: map[string]time.Time{}}
}

// pass reports whether the key may pass now, and remembers it when it does.
func (o *onceEvery) pass(key string, now time.Time) bool {
	o.mu.Lock()
	defer o.mu.Unlock()
	if len(o.last) > 100_000 {
		for k, at := range o.last {
			if now.Sub(at) >= o.every {
				delete(o.last, k)
			}
		}
	}
	if at, ok := o.last[key]; ok && now.Sub(at) < o.every {
		return false
	}
	o.last[key] = now
	return true
}

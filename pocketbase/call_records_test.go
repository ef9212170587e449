package main

import (
	"testing"
	"time"
)

// A call's end is the room's closing less LiveKit's departure timeout, the closing taken halfway
// between the last poll that saw the room and the one that found it gone; never before the start
// nor after now, and the last time seen for a call taken up after a restart.
func TestCallEnd(t *testing.T) {
	start := time.Date(2026, 11, 29, 10, 0, 0, 0, time.UTC)
	seen := start.Add(2 * time.Minute)
	now := seen.Add(2 * time.Second)
	call := &liveCall{started: start, seen: seen, polled: true, departure: 10 * time.Second}
	if got, want := call.end(now), seen.Add(time.Second).Add(-10*time.Second); !got.Equal(want) {
		t.Fatalf("end %v, want %v", got, want)
	}
	short := &liveCall{started: start, seen: start.Add(3 * time.Second), polled: true, departure: 10 * time.Second}
	if got := short.end(start.Add(5 * time.Second)); !got.Equal(start) {
		t.Fatalf("a call shorter than the timeout ends at its start, got %v", got)
	}
	resumed := &liveCall{started: start, seen: seen, departure: 10 * time.Second}
	if got := resumed.end(now.Add(time.Hour)); !got.Equal(seen) {
		t.Fatalf("a call taken up after a restart ends when last seen, got %v", got)
	}
}

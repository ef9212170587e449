package main

import (
	"testing"
	"time"
)

func TestCallAnswers(t *testing.T) {
	start := time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC)
	later := start.Add(30 * time.Second)

	t.Run("a ring nobody answers keeps the caller", func(t *testing.T) {
		a := newCallAnswers()
		a.joined("c1", "alice", true, start)
		// (the caller's second device joining is not an answer)
		a.joined("c1", "alice", false, start.Add(time.Second))
		if got := a.take("c1", later); got != "alice" {
			t.Fatalf("take = %q, want alice", got)
		}
		if got := a.take("c1", later); got != "" {
			t.Fatalf("a call is taken once, got %q", got)
		}
	})
	t.Run("someone else joining answers it", func(t *testing.T) {
		a := newCallAnswers()
		a.joined("c1", "alice", true, start)
		a.joined("c1", "bob", false, start.Add(time.Second))
		if got := a.take("c1", later); got != "" {
			t.Fatalf("take = %q, want nothing", got)
		}
	})
	t.Run("a call that began without a ring is nobody's missed call", func(t *testing.T) {
		a := newCallAnswers()
		a.joined("c1", "bob", false, start)
		a.joined("c1", "alice", true, start.Add(time.Second))
		if got := a.take("c1", later); got != "" {
			t.Fatalf("take = %q, want nothing", got)
		}
	})
	t.Run("a ring after the ended call was last seen belongs to the next call", func(t *testing.T) {
		a := newCallAnswers()
		a.joined("c1", "alice", true, later.Add(time.Second))
		if got := a.take("c1", later); got != "" {
			t.Fatalf("take = %q, want nothing for the call that ended", got)
		}
		if got := a.take("c1", later.Add(time.Minute)); got != "alice" {
			t.Fatalf("the next call's take = %q, want alice", got)
		}
	})
	t.Run("what no record took is forgotten after a day", func(t *testing.T) {
		a := newCallAnswers()
		a.joined("c1", "alice", true, start)
		a.forget(start.Add(callAnswersKept + time.Second))
		if got := a.take("c1", start.Add(callAnswersKept+time.Minute)); got != "" {
			t.Fatalf("take = %q after a day, want nothing", got)
		}
	})
	t.Run("without calls set up nothing is kept", func(t *testing.T) {
		var a *callAnswers
		a.joined("c1", "alice", true, start)
		a.forget(start)
		if got := a.take("c1", later); got != "" {
			t.Fatalf("take = %q, want nothing", got)
		}
	})
}

package main

import (
	"slices"
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
		if got, _ := a.take("c1", later); got != "alice" {
			t.Fatalf("take = %q, want alice", got)
		}
		if got, _ := a.take("c1", later); got != "" {
			t.Fatalf("a call is taken once, got %q", got)
		}
	})
	t.Run("those who declined the ring are kept with it, once each, never the caller", func(t *testing.T) {
		a := newCallAnswers()
		a.joined("c1", "alice", true, start)
		a.decline("c1", "bob")
		a.decline("c1", "bob")
		a.decline("c1", "alice")
		a.decline("c1", "carol")
		caller, declined := a.take("c1", later)
		if caller != "alice" || !slices.Equal(declined, []string{"bob", "carol"}) {
			t.Fatalf("take = %q %v, want alice [bob carol]", caller, declined)
		}
	})
	t.Run("declining then answering on another device answers it", func(t *testing.T) {
		a := newCallAnswers()
		a.joined("c1", "alice", true, start)
		a.decline("c1", "bob")
		a.joined("c1", "bob", false, start.Add(time.Second))
		if caller, declined := a.take("c1", later); caller != "" || declined != nil {
			t.Fatalf("take = %q %v, want nothing", caller, declined)
		}
	})
	t.Run("a ring again in the same room is answered anew: the decline before is not kept", func(t *testing.T) {
		a := newCallAnswers()
		a.joined("c1", "alice", true, start)
		a.decline("c1", "bob")
		a.joined("c1", "alice", true, start.Add(5*time.Second))
		if caller, declined := a.take("c1", later); caller != "alice" || len(declined) != 0 {
			t.Fatalf("take = %q %v, want alice and no decline", caller, declined)
		}
	})
	t.Run("a decline without a ring is not kept", func(t *testing.T) {
		a := newCallAnswers()
		a.decline("c1", "bob")
		if caller, _ := a.take("c1", later); caller != "" {
			t.Fatalf("take = %q, want nothing", caller)
		}
	})
	t.Run("someone else joining answers it", func(t *testing.T) {
		a := newCallAnswers()
		a.joined("c1", "alice", true, start)
		a.joined("c1", "bob", false, start.Add(time.Second))
		if got, _ := a.take("c1", later); got != "" {
			t.Fatalf("take = %q, want nothing", got)
		}
	})
	t.Run("a call that began without a ring is nobody's missed call", func(t *testing.T) {
		a := newCallAnswers()
		a.joined("c1", "bob", false, start)
		a.joined("c1", "alice", true, start.Add(time.Second))
		if got, _ := a.take("c1", later); got != "" {
			t.Fatalf("take = %q, want nothing", got)
		}
	})
	t.Run("a ring after the ended call was last seen belongs to the next call", func(t *testing.T) {
		a := newCallAnswers()
		a.joined("c1", "alice", true, later.Add(time.Second))
		if got, _ := a.take("c1", later); got != "" {
			t.Fatalf("take = %q, want nothing for the call that ended", got)
		}
		if got, _ := a.take("c1", later.Add(time.Minute)); got != "alice" {
			t.Fatalf("the next call's take = %q, want alice", got)
		}
	})
	t.Run("what no record took is forgotten after a day", func(t *testing.T) {
		a := newCallAnswers()
		a.joined("c1", "alice", true, start)
		a.forget(start.Add(callAnswersKept + time.Second))
		if got, _ := a.take("c1", start.Add(callAnswersKept+time.Minute)); got != "" {
			t.Fatalf("take = %q after a day, want nothing", got)
		}
	})
	t.Run("without calls set up nothing is kept", func(t *testing.T) {
		var a *callAnswers
		a.joined("c1", "alice", true, start)
		a.forget(start)
		if got, _ := a.take("c1", later); got != "" {
			t.Fatalf("take = %q, want nothing", got)
		}
	})
}

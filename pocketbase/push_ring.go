package main

import (
	"time"

	"github.com/pocketbase/pocketbase/core"
)

// A call's ring through Web Push (calls.go): "<name> is calling" for the direct conversation's other
// members who have no page open; the push carries no message, only who calls and where.
type ringJob struct {
	channel    *core.Record
	caller     string
	callerName string
}

// ring pushes "<name> is calling" to the direct conversation's other members who have no page open
// (an open page rings by itself, from the live event); never blocks.
func (s *pushSender) ring(channel *core.Record, caller, callerName string) {
	select {
	case s.queue <- pushJob{ring: &ringJob{channel: channel, caller: caller, callerName: callerName}, at: time.Now()}:
	default:
		s.app.Logger().Warn("web push: queue full, ring dropped", "conversation", channel.Id)
	}
}

// deliverRing pushes a call's ring: who calls, in which direct conversation; no message.
func (s *pushSender) deliverRing(job pushJob) {
	channel := job.ring.channel
	// rings are limited on their own (a message pushed just before does not silence a call)
	targets := s.targets(job.ring.caller, nil, channel, "ring "+channel.Id, job.at)
	s.pushTo(targets, channel, pushPayload{
		V: 1, Conversation: channel.Id, Name: channel.GetString("name"), Direct: true, MLS: true, Kind: "call",
		Sender: job.ring.caller, SenderName: job.ring.callerName, Created: job.at.UTC().Format(time.RFC3339),
	})
}

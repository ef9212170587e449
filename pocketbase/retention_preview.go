package main

import (
	"time"

	"github.com/pocketbase/pocketbase/core"
)

// expiringMessages counts the messages (thread replies among them; not edits, reactions or pins) a
// workspace period of `days` would delete now, with the workspace's channel settings and keepPinned:
// the console's "Keep messages for 30 days?" says how many (pb_hooks/retention.pb.js). The selection
// is the sweep's (retention_sweep.go).
func expiringMessages(app core.App, days int, keepPinned bool, now time.Time) (int, error) {
	current := readRetentionPolicy(app)
	channels, err := channelCutoffs(app, retentionPolicy{Days: days, PerChannel: current.PerChannel, KeepPinned: keepPinned}, now)
	if err != nil {
		return 0, err
	}
	total := 0
	for _, c := range channels {
		var n int
		if err := expiring(app, "COUNT(*)", c.ID, c.Cutoff, []any{"", "reply"}, keepPinned).Row(&n); err != nil {
			return 0, err
		}
		total += n
	}
	return total, nil
}

// expiringInChannel counts what a channel's own period of `days` (0: the workspace's) would delete
// now from that channel, with the workspace's policy (a longer own period than the workspace's does
// not apply) and its "keep pinned": the channel admin's "Keep this channel's messages for 7 days?".
func expiringInChannel(app core.App, channelID string, days int, now time.Time) (int, error) {
	policy := readRetentionPolicy(app)
	effective := policy.effectiveDays(days)
	if effective <= 0 {
		return 0, nil
	}
	var n int
	err := expiring(app, "COUNT(*)", channelID, cutoffOf(effective, now), []any{"", "reply"}, policy.KeepPinned).Row(&n)
	return n, err
}

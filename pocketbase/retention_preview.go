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

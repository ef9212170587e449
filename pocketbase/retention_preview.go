package main

import (
	"time"

	"github.com/pocketbase/dbx"
	"github.com/pocketbase/pocketbase/core"
)

// expiringMessages counts the messages (thread replies among them, however recent, when their thread's
// first message goes; not edits, reactions or pins) a workspace period of `days` would delete now, with
// the workspace's channel settings and keepPinned: the console's "Keep messages for 30 days?" says how
// many (pb_hooks/retention.pb.js). The selection is the sweep's (retention_sweep.go).
func expiringMessages(app core.App, days int, keepPinned bool, now time.Time) (int, error) {
	current := readRetentionPolicy(app)
	channels, err := channelCutoffs(app, retentionPolicy{Days: days, PerChannel: current.PerChannel, KeepPinned: keepPinned}, now)
	if err != nil {
		return 0, err
	}
	total := 0
	for _, c := range channels {
		n, err := expiringCount(app, c.ID, c.Cutoff, keepPinned)
		if err != nil {
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
	return expiringCount(app, channelID, cutoffOf(effective, now), policy.KeepPinned)
}

// expiringCount counts the messages and thread replies the sweep deletes from a conversation at
// cutoff: those older than it, and the replies of their threads however recent (they go with them).
func expiringCount(app core.App, channelID, cutoff string, keepPinned bool) (int, error) {
	var old, recent int
	if err := expiring(app, "COUNT(*)", channelID, cutoff, []any{"", "reply"}, keepPinned).Row(&old); err != nil {
		return 0, err
	}
	roots := "SELECT id FROM messages o WHERE o.channel = {:channel} AND o.kind = '' AND o.created < {:cutoff}"
	if keepPinned {
		roots += " AND " + notPinned("o")
	}
	err := app.DB().Select("COUNT(*)").From("messages").
		Where(dbx.HashExp{"channel": channelID, "kind": "reply"}).
		AndWhere(dbx.NewExp("created >= {:cutoff} AND thread IN ("+roots+")", dbx.Params{"cutoff": cutoff, "channel": channelID})).
		Row(&recent)
	return old + recent, err
}

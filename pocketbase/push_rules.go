package main

import (
	"encoding/json"
	"regexp"
	"strconv"
	"time"
	_ "time/tzdata" // quiet hours read in any time zone, whatever the host has installed
)

// A user's notification rules (collection notify_rules), as the page writes them
// (app/features/notify-rules/rules.ts, whose wantsNotification this mirrors): each conversation's
// level and mute, and "Do not disturb" hours in the user's time zone. Keywords are not here: they
// stay encrypted, so only an open page matches them.
type notifyRules struct {
	Conversations map[string]conversationRule `json:"conversations"`
	Quiet         *quietHours                 `json:"quiet"`
	PausedUntil   float64                     `json:"pausedUntil"` // ms since 1970: every notification paused
}

type conversationRule struct {
	Level      string  `json:"level"`
	MutedUntil float64 `json:"mutedUntil"` // ms since 1970
}

type quietHours struct {
	Enabled  bool   `json:"enabled"`
	From     string `json:"from"`
	To       string `json:"to"`
	TimeZone string `json:"timeZone"`
}

var clockTime = regexp.MustCompile(`^([01]\d|2[0-3]):([0-5]\d)$`)

// parseNotifyRules reads a stored rules value; anything unreadable is no rules (the defaults).
func parseNotifyRules(raw []byte) notifyRules {
	var rules notifyRules
	if len(raw) == 0 || json.Unmarshal(raw, &rules) != nil {
		return notifyRules{}
	}
	return rules
}

func minutesOf(hhmm string) (int, bool) {
	m := clockTime.FindStringSubmatch(hhmm)
	if m == nil {
		return 0, false
	}
	h, _ := strconv.Atoi(m[1])
	min, _ := strconv.Atoi(m[2])
	return h*60 + min, true
}

// inQuietHours reports whether now falls in the quiet hours, read in their own time zone.
func (q *quietHours) covers(now time.Time) bool {
	if q == nil || !q.Enabled {
		return false
	}
	from, ok1 := minutesOf(q.From)
	to, ok2 := minutesOf(q.To)
	if !ok1 || !ok2 || from == to {
		return false
	}
	zone, err := time.LoadLocation(q.TimeZone)
	if err != nil || q.TimeZone == "" || q.TimeZone == "Local" {
		return false
	}
	local := now.In(zone)
	at := local.Hour()*60 + local.Minute()
	if from < to {
		return at >= from && at < to
	}
	return at >= from || at < to
}

// wants reports whether a message in the conversation should notify the user: not muted, not
// paused, not in quiet hours, and the level ("all"; "mentions" when mentioned; the default is "all" for a direct
// conversation, "mentions" for a channel).
func (r notifyRules) wants(conversation string, direct, mentioned bool, now time.Time) bool {
	rule := r.Conversations[conversation]
	if rule.MutedUntil > float64(now.UnixMilli()) {
		return false
	}
	if r.PausedUntil > float64(now.UnixMilli()) {
		return false
	}
	if r.Quiet.covers(now) {
		return false
	}
	level := rule.Level
	if level == "" {
		level = "mentions"
		if direct {
			level = "all"
		}
	}
	return level == "all" || (level == "mentions" && mentioned)
}

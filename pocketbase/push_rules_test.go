package main

import (
	"testing"
	"time"
)

func TestNotifyRules(t *testing.T) {
	now := time.Date(2026, 11, 25, 22, 30, 0, 0, time.UTC) // 23:30 in Paris
	conv := "c1"
	cases := []struct {
		name                    string
		rules                   string
		direct, mentioned, want bool
	}{
		{"channel default: mentions only", `{}`, false, false, false},
		{"channel default, mentioned", `{}`, false, true, true},
		{"direct default: every message", `{}`, true, false, true},
		{"all", `{"conversations":{"c1":{"level":"all"}}}`, false, false, true},
		{"nothing, even mentioned", `{"conversations":{"c1":{"level":"nothing"}}}`, true, true, false},
		{"muted until later", `{"conversations":{"c1":{"level":"all","mutedUntil":1795000000000000}}}`, false, true, false},
		{"mute over", `{"conversations":{"c1":{"level":"all","mutedUntil":1000}}}`, false, false, true},
		{"other conversation's rule", `{"conversations":{"c2":{"level":"nothing"}}}`, true, false, true},
		{"quiet across midnight in Paris", `{"quiet":{"enabled":true,"from":"22:00","to":"07:00","timeZone":"Europe/Paris"}}`, true, true, false},
		{"quiet hours elsewhere", `{"quiet":{"enabled":true,"from":"22:00","to":"07:00","timeZone":"America/New_York"}}`, true, true, true},
		{"quiet off", `{"quiet":{"enabled":false,"from":"00:00","to":"23:59","timeZone":"UTC"}}`, true, true, true},
		{"unknown zone: not quiet", `{"quiet":{"enabled":true,"from":"00:00","to":"23:59","timeZone":"Nowhere/Else"}}`, true, true, true},
		{"paused until later", `{"pausedUntil":1795000000000000}`, true, true, false},
		{"pause over", `{"pausedUntil":1000}`, true, false, true},
		{"unreadable rules: defaults", `{"conversations":7}`, true, false, true},
	}
	for _, c := range cases {
		if got := parseNotifyRules([]byte(c.rules)).wants(conv, c.direct, c.mentioned, now); got != c.want {
			t.Errorf("%s: got %v, want %v", c.name, got, c.want)
		}
	}
}

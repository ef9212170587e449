package main

import "testing"

// The period that applies to a conversation: the shorter of the workspace's and (only while channel
// admins may set one) the channel's own; 0 is forever.
func TestRetentionEffectiveDays(t *testing.T) {
	cases := []struct {
		policy  retentionPolicy
		channel int
		want    int
	}{
		{retentionPolicy{Days: 0}, 0, 0},
		{retentionPolicy{Days: 90}, 0, 90},
		{retentionPolicy{Days: 90}, 30, 90}, // channel settings ignored unless allowed
		{retentionPolicy{Days: 90, PerChannel: true}, 30, 30},
		{retentionPolicy{Days: 90, PerChannel: true}, 365, 90}, // never longer than the workspace's
		{retentionPolicy{Days: 0, PerChannel: true}, 7, 7},
		{retentionPolicy{Days: 0, PerChannel: true}, 0, 0},
	}
	for _, c := range cases {
		if got := c.policy.effectiveDays(c.channel); got != c.want {
			t.Errorf("%+v with channel %d: got %d, want %d", c.policy, c.channel, got, c.want)
		}
	}
}

package main

import (
	"testing"
	"time"
)

func TestAccountRuleMatchesTheMostSpecific(t *testing.T) {
	cases := map[[2]string]string{
		{"POST", "/api/chat/channels/join"}:           "POST /api/chat/channels/join",
		{"POST", "/api/chat/channels"}:                "POST /api/chat/channels",
		{"GET", "/api/chat/history"}:                  "/api/chat/",
		{"POST", "/api/collections/messages/records"}: "POST /api/collections/",
		{"GET", "/api/collections/messages/records"}:  "/api/",
		{"GET", "/api/health"}:                        "/api/",
	}
	for request, want := range cases {
		rule, ok := accountRule(request[0], request[1])
		if !ok || rule.Label != want {
			t.Errorf("%v: got %q (%v), want %q", request, rule.Label, ok, want)
		}
	}
	if _, ok := accountRule("GET", "/"); ok {
		t.Error("the web app's own pages are not PocketBase's to limit")
	}
}

func TestAccountLimitsCountEachAccountOnItsOwn(t *testing.T) {
	limits := &accountLimits{limiters: map[string]*accountLimiter{}}
	rule, _ := accountRule("POST", "/api/chat/channels/join")
	now := time.Now()
	for i := 0; i < rule.MaxRequests; i++ {
		if !limits.allow("alice", rule, now) {
			t.Fatalf("request %d refused", i+1)
		}
	}
	if limits.allow("alice", rule, now) {
		t.Fatal("the 11th join within the minute was allowed")
	}
	if !limits.allow("bob", rule, now) {
		t.Fatal("another account was refused")
	}
	// the bucket refills over the rule's duration
	if !limits.allow("alice", rule, now.Add(time.Duration(rule.Duration)*time.Second)) {
		t.Fatal("still refused after the rule's duration")
	}
	// idle accounts are forgotten
	limits.allow("carol", rule, now.Add(2*accountLimitIdle))
	if _, kept := limits.limiters["alice\x00"+rule.Label]; kept {
		t.Fatal("an idle account's counter was kept")
	}
}

func TestAccountLimitsGiveEachDeviceItsShare(t *testing.T) {
	limits := &accountLimits{limiters: map[string]*accountLimiter{}}
	rule, _ := accountRule("POST", "/api/chat/channels/join")
	now := time.Now()
	refusals := map[string]int{}
	allowed := func(session string) int {
		n := 0
		for i := 0; i < 3*rule.MaxRequests; i++ {
			if refused := limits.refusal("alice", session, rule, now); refused == "" {
				n++
			} else {
				refusals[refused]++
			}
		}
		return n
	}
	// a device that floods gets the rule's budget; the person's second device still gets its own
	if got := allowed("laptop"); got != rule.MaxRequests {
		t.Fatalf("the first device got %d, want %d", got, rule.MaxRequests)
	}
	if got := allowed("phone"); got != rule.MaxRequests {
		t.Fatalf("the second device got %d, want %d", got, rule.MaxRequests)
	}
	// more sessions of the same account add nothing beyond the account's budget
	if got := allowed("third"); got != 0 {
		t.Fatalf("a third session got %d beyond the account's %d", got, accountDevicesShare*rule.MaxRequests)
	}
	if limits.refusal("bob", "bobs-laptop", rule, now) != "" {
		t.Fatal("another account was refused")
	}
	if refusals[tooManyFromDevice] == 0 || refusals[tooManyFromAccount] == 0 {
		t.Fatalf("the refusals do not say which budget ran out: %v", refusals)
	}
}

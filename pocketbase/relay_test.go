package main

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"testing"
)

// relayFrame reads the one frame queued on a connection: its event name and recipients.
func relayFrame(t *testing.T, c *relayConn) (string, []string) {
	t.Helper()
	select {
	case frame := <-c.queue:
		text := string(frame)
		name := strings.TrimPrefix(strings.SplitN(text, "\n", 2)[0], "event: ")
		var data struct {
			To []string `json:"to"`
		}
		if err := json.Unmarshal([]byte(strings.TrimSuffix(strings.SplitN(text, "\ndata: ", 2)[1], "\n\n")), &data); err != nil {
			t.Fatalf("bad frame %q: %v", text, err)
		}
		sort.Strings(data.To)
		return name, data.To
	default:
		t.Fatal("no frame queued")
		return "", nil
	}
}

func register(c *relayConn, users ...string) {
	for _, u := range users {
		c.addUser(u)
		c.tokens["hash-of-"+u] = u
	}
}

func TestRelayListsOnlyEachConnectionsOwnRecipients(t *testing.T) {
	hub := &relayHub{conns: map[string]*relayConn{}}
	few := hub.add()  // fewer users than recipients: walks its users
	many := hub.add() // walks the recipients
	idle := hub.add() // none of the recipients: gets nothing
	register(few, "u1", "outsider")
	var recipients []string
	for i := 0; i < 100; i++ {
		recipients = append(recipients, fmt.Sprintf("m%02d", i))
	}
	register(many, recipients[10:90]...)
	register(many, "outsider2")
	register(idle, "nobody")
	recipients = append(recipients, "u1")

	hub.publish("message", recipients, map[string]string{"channel": "c"})

	if name, to := relayFrame(t, few); name != "message" || strings.Join(to, ",") != "u1" {
		t.Fatalf("few: %s %v", name, to)
	}
	if _, to := relayFrame(t, many); len(to) != 80 || to[0] != "m10" || to[79] != "m89" {
		t.Fatalf("many: %v", to)
	}
	if len(idle.queue) != 0 {
		t.Fatal("a connection without recipients got the event")
	}
}

func TestRelayRevokeDropsTheTokenAndTellsEveryConnection(t *testing.T) {
	hub := &relayHub{conns: map[string]*relayConn{}}
	a := hub.add()
	b := hub.add()
	register(a, "alice")
	a.tokens["second-session"] = "alice"
	a.users["alice"]++
	register(b, "bob")

	hub.revoke("hash-of-alice")
	if name, _ := relayFrame(t, a); name != "revoked" {
		t.Fatalf("expected a revoked event, got %s", name)
	}
	// the other web process is told too (it forgets the session was valid), and keeps its users
	if name, _ := relayFrame(t, b); name != "revoked" || b.users["bob"] != 1 {
		t.Fatalf("the other connection: %s, bob registered %d times", name, b.users["bob"])
	}
	// Alice's other session still receives; once it is revoked too, she is gone.
	hub.publish("message", []string{"alice"}, nil)
	if _, to := relayFrame(t, a); strings.Join(to, ",") != "alice" {
		t.Fatalf("alice's other session: %v", to)
	}
	hub.revoke("second-session")
	relayFrame(t, a)
	relayFrame(t, b)
	hub.publish("message", []string{"alice"}, nil)
	if len(a.queue) != 0 {
		t.Fatal("a user with every session signed out still receives")
	}
}

func TestRelayCutsAConnectionThatFallsBehind(t *testing.T) {
	hub := &relayHub{conns: map[string]*relayConn{}}
	c := hub.add()
	register(c, "u")
	for i := 0; i < relayQueueSize+1; i++ {
		hub.publish("message", []string{"u"}, nil)
	}
	if !c.isCut() {
		t.Fatal("a connection with a full queue was not cut off")
	}
}

// listFrame reads the one frame queued on a connection as its data: list name and recipients (nil
// when the frame names the list without listing them).
func listFrame(t *testing.T, c *relayConn) (list string, to []string, hasTo bool) {
	t.Helper()
	select {
	case frame := <-c.queue:
		var data map[string]json.RawMessage
		text := string(frame)
		if err := json.Unmarshal([]byte(strings.TrimSuffix(strings.SplitN(text, "\ndata: ", 2)[1], "\n\n")), &data); err != nil {
			t.Fatalf("bad frame %q: %v", text, err)
		}
		_ = json.Unmarshal(data["list"], &list)
		if raw, ok := data["to"]; ok {
			hasTo = true
			_ = json.Unmarshal(raw, &to)
			sort.Strings(to)
		}
		return list, to, hasTo
	default:
		t.Fatal("no frame queued")
		return "", nil, false
	}
}

func TestRelayNamesAListItSentBeforeUntilMembersOrRegistrationsChange(t *testing.T) {
	hub := &relayHub{conns: map[string]*relayConn{}}
	c := hub.add()
	idle := hub.add()
	register(c, "a", "b")
	register(idle, "x")
	members := []string{"a", "b", "c"}

	hub.publishList("message", "ch1", 7, members, nil)
	if list, to, hasTo := listFrame(t, c); list != "ch1" || !hasTo || strings.Join(to, ",") != "a,b" {
		t.Fatalf("first event: %s %v %v", list, to, hasTo)
	}
	hub.publishList("message", "ch1", 7, members, nil)
	if list, _, hasTo := listFrame(t, c); list != "ch1" || hasTo {
		t.Fatalf("second event should name the list only: %s %v", list, hasTo)
	}
	if len(idle.queue) != 0 {
		t.Fatal("a connection with none of the members got an event")
	}

	// Another channel's list is its own.
	hub.publishList("message", "ch2", 8, []string{"b"}, nil)
	if list, to, _ := listFrame(t, c); list != "ch2" || strings.Join(to, ",") != "b" {
		t.Fatalf("other channel: %s %v", list, to)
	}

	// A member left (new serial): the list is sent again, without them.
	hub.publishList("message", "ch1", 9, []string{"a", "c"}, nil)
	if _, to, hasTo := listFrame(t, c); !hasTo || strings.Join(to, ",") != "a" {
		t.Fatalf("after a member left: %v %v", to, hasTo)
	}

	// A user registered on the connection: sent again, with them.
	register(c, "c")
	hub.publishList("message", "ch1", 9, []string{"a", "c"}, nil)
	if _, to, hasTo := listFrame(t, c); !hasTo || strings.Join(to, ",") != "a,c" {
		t.Fatalf("after a registration: %v %v", to, hasTo)
	}
	hub.publishList("message", "ch1", 9, []string{"a", "c"}, nil)
	if _, _, hasTo := listFrame(t, c); hasTo {
		t.Fatal("unchanged list sent again")
	}

	// A signed-out user's last session: sent again, without them.
	hub.revoke("hash-of-c")
	if name, _ := relayFrame(t, c); name != "revoked" {
		t.Fatalf("expected revoked, got %s", name)
	}
	hub.publishList("message", "ch1", 9, []string{"a", "c"}, nil)
	if _, to, hasTo := listFrame(t, c); !hasTo || strings.Join(to, ",") != "a" {
		t.Fatalf("after a sign-out: %v %v", to, hasTo)
	}

	// A list read while members changed (serial 0) is always sent in full.
	hub.publishList("message", "ch1", 0, []string{"a"}, nil)
	hub.publishList("message", "ch1", 0, []string{"a"}, nil)
	for i := 0; i < 2; i++ {
		if _, _, hasTo := listFrame(t, c); !hasTo {
			t.Fatal("an uncached list was named instead of sent")
		}
	}
}

func TestRelayRevokeUserEndsEverySessionOfThatUserOnly(t *testing.T) {
	hub := &relayHub{conns: map[string]*relayConn{}}
	a := hub.add()
	b := hub.add()
	register(a, "alice", "bob")
	a.tokens["alice-second"] = "alice"
	a.users["alice"]++
	register(b, "alice")

	hub.revokeUser("alice")
	for _, c := range []*relayConn{a, b} {
		for len(c.queue) > 0 {
			if name, _ := relayFrame(t, c); name != "revoked" {
				t.Fatalf("expected only revoked events, got %s", name)
			}
		}
	}
	hub.publish("message", []string{"alice", "bob"}, nil)
	if _, to := relayFrame(t, a); strings.Join(to, ",") != "bob" {
		t.Fatalf("after alice's sessions ended: %v", to)
	}
	if len(b.queue) != 0 {
		t.Fatal("a connection with only alice's sessions still receives")
	}
}

func TestRelayPublishAllReachesEveryRegisteredUserOnEveryConnection(t *testing.T) {
	hub := &relayHub{conns: map[string]*relayConn{}}
	one := hub.add()
	two := hub.add()
	idle := hub.add() // nobody registered: nothing to send
	register(one, "u1", "u2")
	register(two, "u3")

	hub.publishAll("standing", nil)

	if name, to := relayFrame(t, one); name != "standing" || strings.Join(to, ",") != "u1,u2" {
		t.Fatalf("one: %s %v", name, to)
	}
	if name, to := relayFrame(t, two); name != "standing" || strings.Join(to, ",") != "u3" {
		t.Fatalf("two: %s %v", name, to)
	}
	if len(idle.queue) != 0 {
		t.Fatalf("idle got %d frames", len(idle.queue))
	}
}

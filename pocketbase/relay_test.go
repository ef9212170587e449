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
		c.users[u]++
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

func TestRelayRevokeDropsTheTokenAndTellsItsConnection(t *testing.T) {
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
	if len(b.queue) != 0 {
		t.Fatal("another connection was told")
	}
	// Alice's other session still receives; once it is revoked too, she is gone.
	hub.publish("message", []string{"alice"}, nil)
	if _, to := relayFrame(t, a); strings.Join(to, ",") != "alice" {
		t.Fatalf("alice's other session: %v", to)
	}
	hub.revoke("second-session")
	relayFrame(t, a)
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

package main

import (
	"encoding/json"
	"strings"
	"sync"
	"time"

	"github.com/pocketbase/pocketbase/tools/security"
)

// The relay: one server-sent-event connection per web process, on which every live event (new and
// deleted messages, attachments, link previews, membership changes) is sent once, with the ids of
// its recipients. The web process writes it to the page streams of exactly those users.
//
// Who receives what is decided here, per event, from the database (the channel's members at the
// time of the event): the same rule as the collections' list rules. A web process only ever
// receives events for users it registered with their own valid auth token (POST
// /api/chatcrypt/relay/users), so a relay connection carries no privilege of its own: it sees what
// its registered users may see, as their own realtime subscriptions would. A token revoked by
// signing out (sessions.go) is refused, and one already registered is dropped at once: the relay
// sends "revoked" with the token's hash to every web process, and the one holding that session's
// streams closes them.
//
// Web processes hold one connection each instead of one PocketBase realtime client per browser
// stream (docs/decisions/0013-relay.md).

const (
	relayPath         = "/api/chatcrypt/relay"
	relayUsersPath    = "/api/chatcrypt/relay/users"
	relayQueueSize    = 4096             // events waiting for a slow web process before it is cut off
	relayPingEvery    = 20 * time.Second // keeps idle connections (and proxies) open
	relayMaxPerBatch  = 1000             // tokens or user ids per registration request
	relayWriteTimeout = 30 * time.Second
)

type relayConn struct {
	id    string
	queue chan []byte
	done  chan struct{}
	once  sync.Once

	mu     sync.RWMutex
	users  map[string]int    // user id -> how many of their tokens are registered
	tokens map[string]string // token hash -> user id
	// usersGen changes whenever a user is added to or dropped from users.
	usersGen uint64
	// Recipient lists the web process holds, by name (a channel id): the members list (by its
	// serial, members.go) and the registered users (by usersGen) they were filtered from. While
	// both are unchanged, an event names the list instead of listing its recipients again.
	lists map[string]relayList
}

type relayList struct {
	serial, usersGen uint64
	empty            bool // none of the members is registered here: nothing was sent
}

// relayMaxLists bounds the lists remembered per connection (forgetting one only means sending it again).
const relayMaxLists = 10_000

// addUser and dropUser change the registered users (c.mu held).
func (c *relayConn) addUser(id string) {
	if c.users[id]++; c.users[id] == 1 {
		c.usersGen++
	}
}

func (c *relayConn) dropUser(id string) {
	if _, ok := c.users[id]; ok {
		delete(c.users, id)
		c.usersGen++
	}
}

// cut ends the connection; the web process then closes its page streams, whose browsers reconnect
// and fetch what they missed.
func (c *relayConn) cut() {
	c.once.Do(func() { close(c.done) })
}

type relayHub struct {
	mu    sync.RWMutex
	conns map[string]*relayConn
}

var relay = &relayHub{conns: map[string]*relayConn{}}

func (h *relayHub) add() *relayConn {
	c := &relayConn{
		id:     security.RandomString(40),
		queue:  make(chan []byte, relayQueueSize),
		done:   make(chan struct{}),
		users:  map[string]int{},
		tokens: map[string]string{},
		lists:  map[string]relayList{},
	}
	h.mu.Lock()
	h.conns[c.id] = c
	h.mu.Unlock()
	return c
}

func (h *relayHub) remove(c *relayConn) {
	h.mu.Lock()
	delete(h.conns, c.id)
	h.mu.Unlock()
	c.cut()
}

func (h *relayHub) get(id string) *relayConn {
	h.mu.RLock()
	defer h.mu.RUnlock()
	return h.conns[id]
}

// listening reports whether any web process has registered users (so events are worth preparing).
func (h *relayHub) listening() bool {
	h.mu.RLock()
	defer h.mu.RUnlock()
	for _, c := range h.conns {
		c.mu.RLock()
		n := len(c.users)
		c.mu.RUnlock()
		if n > 0 {
			return true
		}
	}
	return false
}

// publish sends one event to every relay connection that has at least one of the recipients,
// listing only those recipients. It never blocks: a connection whose queue is full is cut off.
func (h *relayHub) publish(kind string, recipients []string, record any) {
	h.publishList(kind, "", 0, recipients, record)
}

// publishAll sends one event to every user registered on any connection (a workspace-wide change).
func (h *relayHub) publishAll(kind string, record any) {
	h.mu.RLock()
	everyone := []string{}
	for _, c := range h.conns {
		c.mu.RLock()
		for id := range c.users {
			everyone = append(everyone, id)
		}
		c.mu.RUnlock()
	}
	h.mu.RUnlock()
	h.publish(kind, everyone, record)
}

// publishList is publish for a channel's members as members.list returned them (serial not 0): a
// connection that was sent the same list before gets the list's name instead of the recipients
// ({"list": name}); otherwise the event defines it ({"list": name, "to": [...]}). The web process
// keeps each name's latest list. The choice and the send happen under the connection's lock, so
// a list is always defined before an event names it.
func (h *relayHub) publishList(kind, list string, serial uint64, recipients []string, record any) {
	if len(recipients) == 0 {
		return
	}
	h.mu.RLock()
	conns := make([]*relayConn, 0, len(h.conns))
	for _, c := range h.conns {
		conns = append(conns, c)
	}
	h.mu.RUnlock()

	var recordJSON []byte
	var recipientSet map[string]struct{} // built when a connection has fewer users than recipients
	named := list != "" && serial != 0
	for _, c := range conns {
		if c.isCut() {
			continue
		}
		c.mu.Lock()
		held, known := c.lists[list]
		reuse := named && known && held.serial == serial && held.usersGen == c.usersGen
		var to []string
		if !reuse {
			// Walk the smaller side: a web process with few registered users costs little per
			// event, however large the channel.
			to = make([]string, 0, min(len(recipients), len(c.users)))
			if len(c.users) < len(recipients)/2 {
				if recipientSet == nil {
					recipientSet = make(map[string]struct{}, len(recipients))
					for _, id := range recipients {
						recipientSet[id] = struct{}{}
					}
				}
				for id := range c.users {
					if _, ok := recipientSet[id]; ok {
						to = append(to, id)
					}
				}
			} else {
				for _, id := range recipients {
					if _, ok := c.users[id]; ok {
						to = append(to, id)
					}
				}
			}
			if named {
				if len(c.lists) >= relayMaxLists {
					clear(c.lists)
				}
				c.lists[list] = relayList{serial: serial, usersGen: c.usersGen, empty: len(to) == 0}
			}
		}
		if (reuse && held.empty) || (!reuse && len(to) == 0) {
			c.mu.Unlock()
			continue
		}
		if recordJSON == nil {
			var err error
			if recordJSON, err = json.Marshal(record); err != nil {
				c.mu.Unlock()
				return
			}
		}
		var b strings.Builder
		b.Grow(len(kind) + len(list) + len(recordJSON) + 20*len(to) + 60)
		b.WriteString("event: ")
		b.WriteString(kind)
		b.WriteString("\ndata: {")
		if named {
			listJSON, _ := json.Marshal(list)
			b.WriteString("\"list\":")
			b.Write(listJSON)
			b.WriteString(",")
		}
		if !reuse {
			toJSON, _ := json.Marshal(to)
			b.WriteString("\"to\":")
			b.Write(toJSON)
			b.WriteString(",")
		}
		b.WriteString("\"record\":")
		b.Write(recordJSON)
		b.WriteString("}\n\n")
		c.send([]byte(b.String()))
		c.mu.Unlock()
	}
}

// send queues a frame without blocking; a connection whose queue is full is cut off.
func (c *relayConn) send(frame []byte) {
	select {
	case c.queue <- frame:
	default:
		c.cut()
	}
}

func (c *relayConn) isCut() bool {
	select {
	case <-c.done:
		return true
	default:
		return false
	}
}

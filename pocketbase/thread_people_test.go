package main

import (
	"slices"
	"testing"

	"github.com/pocketbase/dbx"
	"github.com/pocketbase/pocketbase/core"
)

// Who takes part in a reply's thread: its root's sender and every reply's, in that channel only; not
// who edited or reacted, and nobody for a message that is no reply.
func TestThreadPeople(t *testing.T) {
	app := targetsApp(t)
	if _, err := app.DB().NewQuery("CREATE TABLE messages (id TEXT PRIMARY KEY, channel TEXT, sender TEXT, thread TEXT DEFAULT '', kind TEXT DEFAULT '')").Execute(); err != nil {
		t.Fatal(err)
	}
	for _, row := range []dbx.Params{
		{"id": "root", "channel": "c1", "sender": "ann", "thread": "", "kind": ""},
		{"id": "r1", "channel": "c1", "sender": "bob", "thread": "root", "kind": "reply"},
		{"id": "r2", "channel": "c1", "sender": "cat", "thread": "root", "kind": ""},
		{"id": "r3", "channel": "c1", "sender": "bob", "thread": "root", "kind": "reply"},
		{"id": "e1", "channel": "c1", "sender": "eve", "thread": "root", "kind": "reaction"},
		{"id": "x1", "channel": "c2", "sender": "max", "thread": "root", "kind": "reply"},
		{"id": "other", "channel": "c1", "sender": "dan", "thread": "", "kind": ""},
	} {
		if _, err := app.DB().Insert("messages", row).Execute(); err != nil {
			t.Fatal(err)
		}
	}
	collection := core.NewBaseCollection("messages")
	collection.Fields.Add(&core.TextField{Name: "channel"}, &core.TextField{Name: "thread"})
	reply := core.NewRecord(collection)
	reply.Set("channel", "c1")
	reply.Set("thread", "root")
	people := threadPeople(app, reply)
	slices.Sort(people)
	if !slices.Equal(people, []string{"ann", "bob", "cat"}) {
		t.Fatalf("thread people %v, want [ann bob cat]", people)
	}
	plain := core.NewRecord(collection)
	plain.Set("channel", "c1")
	if got := threadPeople(app, plain); got != nil {
		t.Fatalf("a message that is no reply: %v, want none", got)
	}
}

package main

import "github.com/pocketbase/dbx"

// readAround is the page around one message: it and the older half of the page, then the newer half;
// sql.ErrNoRows when the message is not one of the channel's.
func readAround(db dbx.Builder, channel, around string, limit int) (*historyPage, error) {
	var at struct {
		Created string `db:"created"`
	}
	err := db.NewQuery("SELECT created FROM messages WHERE id = {:id} AND channel = {:channel} AND kind = ''").
		Bind(dbx.Params{"id": around, "channel": channel}).One(&at)
	if err != nil {
		return nil, err
	}
	// the message and those before it in (created, id) order; then those after it
	older, more, err := readOlder(db, channel, "created <= {:at} AND (created < {:at} OR id <= {:id})", historyCursor{at.Created, around}, limit-limit/2)
	if err != nil {
		return nil, err
	}
	var newer []historyMessage
	err = db.NewQuery("SELECT " + historyColumns + " FROM messages WHERE channel = {:channel} AND kind = '' AND created >= {:at}" +
		" AND (created > {:at} OR id > {:id}) ORDER BY created, id LIMIT {:limit}").Bind(dbx.Params{"channel": channel, "at": at.Created, "id": around, "limit": limit/2 + 1}).All(&newer)
	if err != nil {
		return nil, err
	}
	page := &historyPage{HasMore: more, HasNewer: len(newer) > limit/2, Threads: []historyThread{}}
	if page.HasNewer {
		newer = newer[:limit/2]
	}
	return page, completePage(db, channel, page, append(older, newer...))
}

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
	cursor := historyCursor{at.Created, around}
	older, more, err := readOlder(db, channel, "created <= {:at} AND (created < {:at} OR id <= {:id})", cursor, limit-limit/2)
	if err != nil {
		return nil, err
	}
	newer, hasNewer, err := readRun(db, channel, "created >= {:at} AND (created > {:at} OR id > {:id})", "created, id", cursor, limit/2)
	if err != nil {
		return nil, err
	}
	page := &historyPage{HasMore: more, HasNewer: hasNewer, Threads: []historyThread{}}
	return page, completePage(db, channel, page, append(older, newer...))
}

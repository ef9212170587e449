package main

import "github.com/pocketbase/dbx"

// readAfter is everything stored in the channel since a moment (`created >= after`), oldest first:
// messages, thread replies, edits, reactions and pins alike, the first `limit` of them, each message
// with its files and previews. It is what a page missed while it was away (the catch-up after every
// opening and reconnect); hasMore says the next call goes on from the last one's time. One query for
// the records by the channel's (channel, created) index, two for their parts.
func readAfter(db dbx.Builder, channel, after string, limit int) (*historyPage, error) {
	var records []historyMessage
	err := db.NewQuery("SELECT " + historyColumns + " FROM messages WHERE channel = {:channel} AND created >= {:after}" +
		" ORDER BY created, id LIMIT {:limit}").Bind(dbx.Params{"channel": channel, "after": after, "limit": limit}).All(&records)
	if err != nil {
		return nil, err
	}
	page := &historyPage{Messages: records, HasMore: len(records) == limit, Threads: []historyThread{}}
	if len(records) == 0 {
		page.Messages = []historyMessage{}
		return page, nil
	}
	in, inParams := idList(records)
	return page, readParts(db, page.Messages, in, inParams)
}

package main

import (
	"fmt"
	"strings"

	"github.com/pocketbase/dbx"
)

// readParts puts the files and link previews of the messages listed in `in` under their messages.
func readParts(db dbx.Builder, messages []historyMessage, in string, inParams dbx.Params) error {
	var attachments []historyAttachment
	err := db.NewQuery("SELECT id, message, channel, file_name, file_size, file_type, storage_path, uploaded_by, file FROM file_attachments WHERE message IN (" +
		in + ") ORDER BY created, id").Bind(inParams).All(&attachments)
	if err != nil {
		return err
	}
	var previews []historyPreview
	err = db.NewQuery("SELECT id, message, channel, url, title, description, image_url, image FROM link_previews WHERE message IN (" +
		in + ") ORDER BY created, id").Bind(inParams).All(&previews)
	if err != nil {
		return err
	}
	attachParts(messages, attachments, previews)
	return nil
}

// idList is "{:m0}, {:m1}, ..." for the messages' ids, and its parameters.
func idList(messages []historyMessage) (string, dbx.Params) {
	params := dbx.Params{}
	names := make([]string, len(messages))
	for i, m := range messages {
		names[i] = fmt.Sprintf("{:m%d}", i)
		params[fmt.Sprintf("m%d", i)] = m.ID
	}
	return strings.Join(names, ", "), params
}

// attachParts puts each file and preview under its message, as the records API's back-relation expand does.
func attachParts(messages []historyMessage, attachments []historyAttachment, previews []historyPreview) {
	byID := make(map[string]*historyMessage, len(messages))
	for i := range messages {
		byID[messages[i].ID] = &messages[i]
	}
	expand := func(id string) *historyExpand {
		m := byID[id]
		if m == nil {
			return nil
		}
		if m.Expand == nil {
			m.Expand = &historyExpand{}
		}
		return m.Expand
	}
	for _, a := range attachments {
		if x := expand(a.Message); x != nil {
			x.Attachments = append(x.Attachments, a)
		}
	}
	for _, p := range previews {
		if x := expand(p.Message); x != nil {
			x.Previews = append(x.Previews, p)
		}
	}
}

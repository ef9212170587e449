// Text out of a feed's fields: typed text, extensions, Atom's text types (feed.go).
package main

import (
	"bytes"
	"encoding/xml"
	"net/url"
	"strings"

	ext "github.com/mmcdole/gofeed/extensions"
)

// typedText reads the text of an Atom text construct (or a typed extension) by its type: plain
// text is tidied, HTML and XHTML are reduced to text, other types (images, ...) give "".
func typedText(value, contentType string, maxChars int) string {
	switch strings.ToLower(strings.TrimSpace(contentType)) {
	case "", "text", "plain", "text/plain":
		return tidyText(value, maxChars)
	case "html", "text/html", "xhtml", "application/xhtml+xml":
		return htmlToText(value, maxChars)
	}
	return ""
}

func typedExtText(e *ext.Extension, maxChars int) string {
	if e == nil {
		return ""
	}
	return typedText(e.Value, e.Attrs["type"], maxChars)
}

// mediaDescription is the Media RSS description of an item, directly or in its <media:group>.
func mediaDescription(exts ext.Extensions) string {
	description := extFirst(exts, "media", "description")
	if description == nil {
		if group := extFirst(exts, "media", "group"); group != nil && len(group.Children["description"]) > 0 {
			description = &group.Children["description"][0]
		}
	}
	return typedExtText(description, feedTextMaxChars)
}

// alternateExtLink is the href of the first <atom:link> whose rel is "alternate" or absent.
func alternateExtLink(links []ext.Extension, base *url.URL) string {
	for _, l := range links {
		rel := strings.ToLower(strings.TrimSpace(l.Attrs["rel"]))
		if rel == "" || rel == "alternate" {
			if href := httpURL(l.Attrs["href"], base); href != "" {
				return href
			}
		}
	}
	return ""
}

// extFirst is the first extension element prefix:name of an item (gofeed keys extensions by
// the namespace's usual prefix, whatever prefix the feed binds), or nil.
func extFirst(exts ext.Extensions, prefix, name string) *ext.Extension {
	if list := exts[prefix][name]; len(list) > 0 {
		return &list[0]
	}
	return nil
}

func extValue(exts ext.Extensions, prefix, name string) string {
	if e := extFirst(exts, prefix, name); e != nil {
		return e.Value
	}
	return ""
}

func firstOf(candidates ...func() string) string {
	for _, candidate := range candidates {
		if value := candidate(); value != "" {
			return value
		}
	}
	return ""
}

// entryTypes are the type attributes of an Atom entry's title and summary, which gofeed reads
// but does not keep: "html" titles are markup to reduce to text, "text" titles are shown as
// written ("Use <b> for bold" stays).
type entryTypes struct {
	title, summary string
}

// atomTextTypes reads the types of each entry's title and summary, entries in document order
// (the order gofeed keeps them in).
func atomTextTypes(doc []byte) []entryTypes {
	d := xml.NewDecoder(bytes.NewReader(doc))
	d.Strict = false
	var types []entryTypes
	depth := 0
	inEntry := false
	for {
		token, err := d.Token()
		if err != nil {
			return types
		}
		switch t := token.(type) {
		case xml.StartElement:
			depth++
			if !isAtomSpace(t.Name.Space) {
				continue
			}
			name := strings.ToLower(t.Name.Local)
			switch {
			case depth == 2 && name == "entry":
				types = append(types, entryTypes{})
				inEntry = true
			case depth == 3 && inEntry && name == "title":
				types[len(types)-1].title = attrValue(t, "type")
			case depth == 3 && inEntry && name == "summary":
				types[len(types)-1].summary = attrValue(t, "type")
			}
		case xml.EndElement:
			if depth == 2 {
				inEntry = false
			}
			depth--
		}
	}
}

func isAtomSpace(space string) bool {
	switch strings.TrimSpace(space) {
	case "", "http://www.w3.org/2005/Atom", "http://purl.org/atom/ns#":
		return true
	}
	return false
}

func attrValue(element xml.StartElement, name string) string {
	for _, a := range element.Attr {
		if a.Name.Space == "" && a.Name.Local == name {
			return a.Value
		}
	}
	return ""
}

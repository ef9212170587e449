package main

// The news feed's reader ($parseFeed, for GET /api/chat/news): RSS 0.9x/1.0/2.0, Atom 0.3/1.0
// and JSON Feed are parsed by github.com/mmcdole/gofeed; this file turns what it reads into the
// plain-text items the sidebar shows, {id, title, description, pubDate, link}:
//
//   - title and description are plain text (HTML reduced to text by htmlToText; Atom text
//     constructs by their type), at most 300 and 1,000 characters;
//   - pubDate is as the feed writes it, at most 100 characters;
//   - link is an absolute http(s) address (relative ones resolved against the feed's address),
//     or "";
//   - id is the guid or id, else the link, else the title, made unique within the answer.
//
// Items with neither title nor description are left out. A feed gofeed cannot read because it is
// not well-formed is read again after repairXML (feedrepair.go) has rebuilt it.

import (
	"bytes"
	"net/url"
	"strconv"
	"strings"

	"github.com/mmcdole/gofeed"
	atomfeed "github.com/mmcdole/gofeed/atom"
	jsonfeed "github.com/mmcdole/gofeed/json"
	"github.com/mmcdole/gofeed/rss"
)

const (
	feedDefaultLimit  = 30
	feedMaxLimit      = 100
	feedTitleMaxChars = 300
	feedTextMaxChars  = 1000
	feedIDMaxChars    = 2048
	feedDateMaxChars  = 100
	// feedIDFromTextChars is how much of a description serves as the id of an item that has
	// nothing better.
	feedIDFromTextChars = 200
)

// feedItem is one item as GET /api/chat/news answers it (app/workspace/feed.ts).
type feedItem struct {
	ID          string `json:"id"`
	Title       string `json:"title"`
	Description string `json:"description"`
	PubDate     string `json:"pubDate"`
	Link        string `json:"link"`
}

// feedResult is what a document holds: Format is "rss", "atom" or "json", or "" when the
// document is no feed at all (an empty feed has a format and no items).
type feedResult struct {
	Format string     `json:"format"`
	Items  []feedItem `json:"items"`
}

// parseFeedBytes reads a fetched feed: decoded by its byte order mark, Content-Type charset or
// XML declaration (decodeXML), then read by parseFeedText.
func parseFeedBytes(raw []byte, contentType, baseURL string, limit int) feedResult {
	if len(raw) > parseInputMaxBytes {
		raw = raw[:parseInputMaxBytes]
	}
	return parseFeedText(decodeXML(raw, contentType), baseURL, limit)
}

// parseFeedText reads a feed that is already text: at most `limit` items, in feed order, with
// relative links resolved against baseURL. Only the first 512 KB are read.
func parseFeedText(text, baseURL string, limit int) feedResult {
	result := feedResult{Items: []feedItem{}}
	text = stripXMLDeclaration(capBytes(text, parseInputMaxBytes))
	base := parseBaseURL(baseURL)

	format, items, ok := readFeed([]byte(text), base)
	if !ok && strings.HasPrefix(strings.TrimSpace(text), "<") {
		format, items, ok = readFeed(repairXML(text), base)
	}
	if !ok {
		return result
	}
	result.Format = format
	result.Items = finishItems(items, min(max(limit, 0), feedMaxLimit))
	return result
}

// readFeed parses a document with gofeed; ok is false when it is no feed gofeed can read.
func readFeed(doc []byte, base *url.URL) (format string, items []feedItem, ok bool) {
	switch gofeed.DetectFeedType(bytes.NewReader(doc)) {
	case gofeed.FeedTypeRSS:
		feed, err := (&rss.Parser{}).Parse(bytes.NewReader(doc))
		if err != nil {
			return "", nil, false
		}
		for _, item := range feed.Items {
			items = append(items, rssItem(item, base))
		}
		return "rss", items, true

	case gofeed.FeedTypeAtom:
		feed, err := (&atomfeed.Parser{}).Parse(bytes.NewReader(doc))
		if err != nil {
			return "", nil, false
		}
		types := atomTextTypes(doc)
		if len(types) != len(feed.Entries) {
			types = make([]entryTypes, len(feed.Entries)) // the default, text
		}
		for i, entry := range feed.Entries {
			items = append(items, atomEntry(entry, types[i], base))
		}
		return "atom", items, true

	case gofeed.FeedTypeJSON:
		feed, err := (&jsonfeed.Parser{}).Parse(bytes.NewReader(doc))
		if err != nil || !strings.Contains(feed.Version, "jsonfeed.org/version/") {
			return "", nil, false
		}
		for _, item := range feed.Items {
			if item != nil {
				items = append(items, jsonItem(item, base))
			}
		}
		return "json", items, true
	}
	return "", nil, false
}

// finishItems leaves out items without text, gives every item an id unique within the answer,
// and keeps the first `limit`.
func finishItems(items []feedItem, limit int) []feedItem {
	out := []feedItem{}
	seen := map[string]bool{}
	for _, item := range items {
		if len(out) >= limit {
			break
		}
		if item.Title == "" && item.Description == "" {
			continue
		}
		id := firstOf(
			func() string { return item.ID },
			func() string { return item.Link },
			func() string { return item.Title },
			func() string { return capChars(item.Description, feedIDFromTextChars) },
		)
		if seen[id] {
			n := 2
			for seen[id+"#"+strconv.Itoa(n)] {
				n++
			}
			id += "#" + strconv.Itoa(n)
		}
		seen[id] = true
		item.ID = id
		out = append(out, item)
	}
	return out
}

func rssItem(item *rss.Item, base *url.URL) feedItem {
	exts := item.Extensions
	var id, permalink string
	if item.GUID != nil {
		id = tidyText(item.GUID.Value, feedIDMaxChars)
		// A permalink guid must be an absolute address: sloppy feeds leave isPermaLink out of
		// guids such as "post-17", which are no links.
		if !strings.EqualFold(strings.TrimSpace(item.GUID.IsPermalink), "false") {
			permalink = httpURL(id, nil)
		}
	}
	return feedItem{
		ID: id,
		Title: firstOf(
			func() string { return htmlToText(item.Title, feedTitleMaxChars) },
			func() string { return htmlToText(extValue(exts, "dc", "title"), feedTitleMaxChars) },
			func() string { return htmlToText(extValue(exts, "media", "title"), feedTitleMaxChars) },
		),
		Description: firstOf(
			func() string { return htmlToText(item.Description, feedTextMaxChars) },
			func() string { return htmlToText(item.Content, feedTextMaxChars) },
			func() string { return typedExtText(extFirst(exts, "atom", "summary"), feedTextMaxChars) },
			func() string { return mediaDescription(exts) },
		),
		PubDate: firstOf(
			func() string { return tidyText(item.PubDate, feedDateMaxChars) },
			func() string { return tidyText(extValue(exts, "dc", "date"), feedDateMaxChars) },
			func() string { return tidyText(extValue(exts, "atom", "published"), feedDateMaxChars) },
			func() string { return tidyText(extValue(exts, "atom", "updated"), feedDateMaxChars) },
		),
		Link: firstOf(
			func() string { return httpURL(item.Link, base) },
			func() string { return alternateExtLink(exts["atom"]["link"], base) },
			func() string { return permalink },
		),
	}
}

func atomEntry(entry *atomfeed.Entry, types entryTypes, base *url.URL) feedItem {
	link := ""
	for _, l := range entry.Links {
		if l != nil && strings.EqualFold(strings.TrimSpace(l.Rel), "alternate") {
			if link = httpURL(l.Href, base); link != "" {
				break
			}
		}
	}
	return feedItem{
		ID:    tidyText(entry.ID, feedIDMaxChars),
		Title: typedText(entry.Title, types.title, feedTitleMaxChars),
		Description: firstOf(
			func() string { return typedText(entry.Summary, types.summary, feedTextMaxChars) },
			func() string {
				if entry.Content == nil || entry.Content.Src != "" {
					return ""
				}
				return typedText(entry.Content.Value, entry.Content.Type, feedTextMaxChars)
			},
			func() string { return mediaDescription(entry.Extensions) },
		),
		PubDate: firstOf(
			func() string { return tidyText(entry.Published, feedDateMaxChars) },
			func() string { return tidyText(entry.Updated, feedDateMaxChars) },
		),
		Link: link,
	}
}

// jsonItem reads a JSON Feed item: title, summary and content_text are plain text,
// content_html is HTML.
func jsonItem(item *jsonfeed.Item, base *url.URL) feedItem {
	return feedItem{
		ID:    tidyText(item.ID, feedIDMaxChars),
		Title: tidyText(item.Title, feedTitleMaxChars),
		Description: firstOf(
			func() string { return tidyText(item.Summary, feedTextMaxChars) },
			func() string { return htmlToText(item.ContentHTML, feedTextMaxChars) },
			func() string { return tidyText(item.ContentText, feedTextMaxChars) },
		),
		PubDate: firstOf(
			func() string { return tidyText(item.DatePublished, feedDateMaxChars) },
			func() string { return tidyText(item.DateModified, feedDateMaxChars) },
		),
		Link: firstOf(
			func() string { return httpURL(item.URL, base) },
			func() string { return httpURL(item.ExternalURL, base) },
		),
	}
}

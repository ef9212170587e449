package main

import (
	"encoding/xml"
	"errors"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"
	"unicode/utf8"
)

func fixture(t testing.TB, name string) []byte {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return data
}

func expectItems(t *testing.T, got feedResult, format string, want []feedItem) {
	t.Helper()
	if got.Format != format {
		t.Errorf("format %q, want %q", got.Format, format)
	}
	if !reflect.DeepEqual(got.Items, want) {
		t.Errorf("items:\n got %+v\nwant %+v", got.Items, want)
	}
}

func TestFeedCDATAAndEntities(t *testing.T) {
	got := parseFeedBytes(fixture(t, "feed-cdata-entities.xml"), "application/rss+xml", "https://news.example/feed.xml", 30)
	expectItems(t, got, "rss", []feedItem{
		{
			ID:          "fish-1",
			Title:       "Fish & Chips tonight",
			Description: "Crispy & hot — see the menu",
			PubDate:     "Sun, 22 Nov 2026 16:00:00 GMT",
			Link:        "https://news.example/menu/fish?a=1&b=2", // relative: resolved against the feed
		},
		{
			// Decoded once per level: XML, then the HTML inside.
			ID:          "https://news.example/att",
			Title:       "AT&T — café “quoted”",
			Description: "Escaped markup &amp; more",
			Link:        "https://news.example/att",
		},
		{
			ID:          "Mixed CDATA and text & more",
			Title:       "Mixed CDATA and text & more",
			Description: "Full text]]> with a CDATA end inside",
			PubDate:     "2026-11-21T10:00:00Z",
		},
	})
}

func TestFeedAtomContentAndSummary(t *testing.T) {
	got := parseFeedBytes(fixture(t, "feed-atom-content-summary.xml"), "application/atom+xml", "https://blog.example/feeds/atom.xml", 30)
	expectItems(t, got, "atom", []feedItem{
		{ID: "urn:fixture:1", Title: "Summary and content", Description: "The short version.", PubDate: "2026-11-22T18:30:02Z", Link: "https://blog.example/posts/1"},
		{ID: "urn:fixture:2", Title: "HTML title & more", Description: "Only content, as HTML in CDATA.", PubDate: "2026-11-20T08:00:00Z", Link: "https://blog.example/2"},
		{ID: "urn:fixture:3", Title: "Use <b> for bold", Description: "Inline XHTML & more"},
		{ID: "urn:fixture:4", Title: "Content elsewhere"},
		{ID: "urn:fixture:5", Title: "Binary content", Description: "From the media group."},
	})
}

func TestFeedCharsets(t *testing.T) {
	latin1 := fixture(t, "feed-latin1.xml")
	want := []feedItem{{ID: "latin-1", Title: "Café crème", Description: "À la carte, 5 €"}}
	// The XML declaration names the encoding; a charset parameter agreeing with it, or one that
	// wrongly says UTF-8, give the same text.
	for _, contentType := range []string{"application/rss+xml", "text/xml; charset=ISO-8859-1", "application/xml; charset=utf-8", ""} {
		// The guid "latin-1" is no permalink, even with a feed address to resolve it against.
		expectItems(t, parseFeedBytes(latin1, contentType, "https://feed.example/feed.xml", 30), "rss", want)
	}

	// No declaration, no charset, not UTF-8: windows-1252.
	expectItems(t, parseFeedBytes(fixture(t, "feed-windows1252-undeclared.xml"), "application/rss+xml", "", 30), "rss",
		[]feedItem{{ID: "cp1252", Title: "“Smart quotes” – dashes"}})

	// The charset parameter wins over the declaration (RFC 7303).
	cyrillicDeclared := []byte("<?xml version=\"1.0\" encoding=\"ISO-8859-5\"?><rss><channel><item><title>caf\xe9</title></item></channel></rss>")
	if got := parseFeedBytes(cyrillicDeclared, "text/xml; charset=windows-1252", "", 30); got.Items[0].Title != "café" {
		t.Errorf("charset parameter: got %q", got.Items[0].Title)
	}
	if got := parseFeedBytes(cyrillicDeclared, "text/xml", "", 30); got.Items[0].Title != "cafщ" {
		t.Errorf("declaration: got %q", got.Items[0].Title)
	}

	// A byte order mark wins over everything: UTF-16 with a declaration that says otherwise.
	utf16 := []byte{0xff, 0xfe}
	for _, r := range `<?xml version="1.0" encoding="ISO-8859-1"?><rss><channel><item><title>Ünïcödé ✓</title></item></channel></rss>` {
		utf16 = append(utf16, byte(r), byte(r>>8))
	}
	if got := parseFeedBytes(utf16, "application/rss+xml; charset=iso-8859-1", "", 30); len(got.Items) != 1 || got.Items[0].Title != "Ünïcödé ✓" {
		t.Errorf("UTF-16: got %+v", got)
	}

	// Text is already decoded: a declaration in it is not applied a second time.
	text := `<?xml version="1.0" encoding="ISO-8859-1"?><rss><channel><item><title>Café</title></item></channel></rss>`
	if got := parseFeedText(text, "", 30); got.Items[0].Title != "Café" {
		t.Errorf("decoded text: got %q", got.Items[0].Title)
	}
}

func TestFeedJSON(t *testing.T) {
	got := parseFeedBytes(fixture(t, "feed.json"), "application/feed+json", "https://json.example/feed.json", 30)
	expectItems(t, got, "json", []feedItem{
		{ID: "1", Title: "Numbered id & <plain> title", Description: "Hello world & more", PubDate: "2026-11-22T10:00:00Z", Link: "https://json.example/posts/1"},
		{ID: "2", Description: "The summary wins", PubDate: "2026-11-23T10:00:00Z", Link: "https://elsewhere.example/2"},
	})

	// JSON that is not a JSON Feed is no feed.
	for _, doc := range []string{`{"items": [{"id": "1", "title": "API answer"}]}`, `{"version": 2}`, `{`, `[]`} {
		if got := parseFeedText(doc, "", 30); got.Format != "" || len(got.Items) != 0 {
			t.Errorf("%s: got %+v", doc, got)
		}
	}
}

func TestFeedMissingTitles(t *testing.T) {
	got := parseFeedBytes(fixture(t, "feed-missing-titles.xml"), "application/rss+xml", "", 30)
	expectItems(t, got, "rss", []feedItem{
		{ID: "No title here, only a description.", Description: "No title here, only a description."},
		{ID: "https://x.example/dc", Title: "Dublin Core title", Link: "https://x.example/dc"},
		{ID: "dup", Description: "Second untitled"},
		{ID: "dup#2", Description: "Third untitled"},
	})
}

func TestFeedBrokenXMLIsRepaired(t *testing.T) {
	raw := fixture(t, "feed-broken.xml")
	if _, _, ok := readFeed([]byte(stripXMLDeclaration(string(raw))), nil); ok {
		t.Fatal("gofeed reads the broken fixture as it is: the test no longer covers the repair")
	}
	got := parseFeedBytes(raw, "application/rss+xml", "", 30)
	expectItems(t, got, "rss", []feedItem{
		{ID: "https://broken.example/1", Title: "Tom & Jerry < 3", Description: "An unclosed tag and a bare & ampersand", Link: "https://broken.example/1"},
		// isPermaLink keeps its meaning through the repair: the guid is no link.
		{ID: "https://broken.example/not-a-link", Title: "Misspelt end tag"},
		{ID: "Cut off in the middle", Title: "Cut off in the middle"},
	})
}

func TestFeedLimitsAndNonFeeds(t *testing.T) {
	var b strings.Builder
	b.WriteString("<rss><channel>")
	for i := 0; i < 150; i++ {
		b.WriteString("<item><title>Item</title></item>")
	}
	b.WriteString("</channel></rss>")
	many := b.String()
	for limit, want := range map[int]int{0: 0, 5: 5, 30: 30, 1000: feedMaxLimit} {
		if got := parseFeedText(many, "", limit); len(got.Items) != want || got.Format != "rss" {
			t.Errorf("limit %d: %d items, format %q", limit, len(got.Items), got.Format)
		}
	}

	for _, doc := range []string{"", "plain text", "<html><head><title>Sign in</title></head><body>Portal</body></html>", "<<<>>>", "<?xml version=\"1.0\"?>"} {
		if got := parseFeedText(doc, "", 30); got.Format != "" || got.Items == nil || len(got.Items) != 0 {
			t.Errorf("%q: got %+v", doc, got)
		}
	}
	if got := parseFeedText("<rss version=\"2.0\"><channel><title>Empty</title></channel></rss>", "", 30); got.Format != "rss" || len(got.Items) != 0 {
		t.Errorf("an empty feed is a feed: got %+v", got)
	}
}

func TestFeedHugeInputIsTruncated(t *testing.T) {
	late := "<item><title>Late</title></item></channel></rss>"
	doc := "<rss><channel><item><title>Early</title></item><!--" + strings.Repeat("x", 2*1024*1024) + "-->" + late
	started := time.Now()
	got := parseFeedBytes([]byte(doc), "application/rss+xml", "", 30)
	if len(got.Items) != 1 || got.Items[0].Title != "Early" {
		t.Errorf("got %+v", got.Items)
	}
	if elapsed := time.Since(started); elapsed > 2*time.Second {
		t.Errorf("took %v", elapsed)
	}

	// Fields are capped: titles at 300 characters, descriptions at 1,000, dates at 100.
	long := "<rss><channel><item><title>" + strings.Repeat("t", 500) + "</title><description>" +
		strings.Repeat("😀", 5000) + "</description><pubDate>" + strings.Repeat("d", 500) + "</pubDate></item></channel></rss>"
	item := parseFeedText(long, "", 30).Items[0]
	if len(item.Title) != 300 || utf8.RuneCountInString(item.Description) != 1000 || len(item.PubDate) != 100 {
		t.Errorf("caps: %d %d %d", len(item.Title), utf8.RuneCountInString(item.Description), len(item.PubDate))
	}
}

func TestFeedHostileInputsStayFast(t *testing.T) {
	size := 512 * 1024
	inputs := []string{
		"<rss><item><title>x</title>" + strings.Repeat("<a '\"", size/5),
		"<rss><item><title>x</title><description>" + strings.Repeat("<div>", size/5),
		"<rss><item><title>x</title>" + strings.Repeat("<a>", 250) + strings.Repeat("</b>", size/4),
		"<rss><item><title>x</title>" + strings.Repeat("<", size),
		"<rss>" + strings.Repeat("<title>", size/7),
		"<rss><item><title>x</title><description>" + strings.Repeat("&amp;lt;script&amp;gt;", size/24) + "</description></item></rss>",
		"<feed xmlns=\"http://www.w3.org/2005/Atom\">" + strings.Repeat("<entry><title type=\"html\">&lt;b&gt;", size/40),
	}
	started := time.Now()
	for _, input := range inputs {
		parseFeedText(input, "https://feed.example/", 30)
	}
	if elapsed := time.Since(started); elapsed > 3*time.Second {
		t.Errorf("hostile inputs took %v", elapsed)
	}
}

func TestRepairXMLIsWellFormed(t *testing.T) {
	inputs := []string{
		string(fixture(t, "feed-broken.xml")),
		"<rss><channel><item><title>First<item><title>Second</title>",
		`<a b="1" b="2" 9bad="x" c=unquoted d='it''s'><![CDATA[x]]><![CDATA[unterminated`,
		"<x:y:z><:a><a:></a:><p>\x00\x01\ufffe text & < > \"</p>",
		"</closing><only></only></stray>",
		strings.Repeat("<deep>", 1000) + "text",
	}
	for _, input := range inputs {
		if err := wellFormed(repairXML(input)); err != nil {
			t.Errorf("%.60q: %v\n%s", input, err, repairXML(input))
		}
	}
}

func FuzzRepairXML(f *testing.F) {
	f.Add(string(fixture(f, "feed-broken.xml")))
	f.Add(string(fixture(f, "feed-cdata-entities.xml")))
	f.Add("<a><b></a></b><![CDATA[ ]]> &amp &#0; <? ?> <!doctype x>")
	f.Fuzz(func(t *testing.T, input string) {
		if err := wellFormed(repairXML(input)); err != nil {
			t.Fatalf("%q: %v", input, err)
		}
		got := parseFeedText(input, "https://feed.example/", 30)
		for _, item := range got.Items {
			if item.Link != "" && httpURL(item.Link, nil) != item.Link {
				t.Fatalf("link %q is not an absolute http(s) address", item.Link)
			}
		}
	})
}

// wellFormed reads a document with encoding/xml in strict mode.
func wellFormed(doc []byte) error {
	d := xml.NewDecoder(strings.NewReader(string(doc)))
	for {
		if _, err := d.Token(); err != nil {
			if errors.Is(err, io.EOF) {
				return nil
			}
			return err
		}
	}
}

// A realistic feed of 512 KB: RSS items with escaped HTML descriptions and content:encoded.
func BenchmarkParseFeed512KB(b *testing.B) {
	var doc strings.Builder
	doc.WriteString(`<?xml version="1.0" encoding="UTF-8"?><rss version="2.0" xmlns:content="http://purl.org/rss/1.0/modules/content/"><channel><title>Bench</title>`)
	for i := 0; doc.Len() < 512*1024-2048; i++ {
		doc.WriteString(`<item><title>Item &amp; title</title><link>https://bench.example/item</link>` +
			`<description>&lt;p&gt;A &lt;b&gt;short&lt;/b&gt; description &amp;hellip;&lt;/p&gt;</description>` +
			`<content:encoded><![CDATA[<div><p>` + strings.Repeat("Full article text with <a href=\"/x\">links</a>. ", 20) + `</p></div>]]></content:encoded>` +
			`<pubDate>Sun, 22 Nov 2026 16:00:00 GMT</pubDate><guid>https://bench.example/item</guid></item>`)
	}
	doc.WriteString(`</channel></rss>`)
	raw := []byte(doc.String())
	b.SetBytes(int64(len(raw)))
	for b.Loop() {
		if got := parseFeedBytes(raw, "application/rss+xml", "https://bench.example/feed.xml", 30); len(got.Items) != 30 {
			b.Fatal(len(got.Items))
		}
	}
}

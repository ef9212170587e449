package main

import (
	"strings"
	"testing"
)

func TestDecodeText(t *testing.T) {
	latin1 := fixture(t, "feed-latin1.xml")
	cases := []struct {
		name, mediaType, header string
		raw                     []byte
		want                    string
	}{
		// XML bodies ($safeFetch without raw) follow the XML declaration when the header is silent.
		{"xml declaration", "application/rss+xml", "application/rss+xml", []byte(`<?xml version="1.0" encoding="ISO-8859-1"?><t>caf` + "\xe9</t>"), `<?xml version="1.0" encoding="ISO-8859-1"?><t>café</t>`},
		{"xml charset", "text/xml", "text/xml; charset=windows-1252", []byte("<t>\x93q\x94</t>"), "<t>“q”</t>"},
		{"xml utf-8", "application/xml", "application/xml", []byte("<t>café</t>"), "<t>café</t>"},
		{"html meta", "text/html", "text/html", []byte(`<meta charset="windows-1252"><p>` + "\x80"), `<meta charset="windows-1252"><p>€`},
		{"html mislabelled", "text/html", "text/html; charset=utf-8", []byte("<p>caf\xe9</p>"), "<p>café</p>"},
		{"plain text", "text/plain", "text/plain; charset=iso-8859-1", []byte("caf\xe9"), "café"},
	}
	for _, c := range cases {
		if got := decodeText(c.raw, c.mediaType, charsetParam(c.header), c.header); got != c.want {
			t.Errorf("%s: got %q, want %q", c.name, got, c.want)
		}
	}
	if got := decodeXML(latin1, ""); !strings.Contains(got, "<title>Café crème</title><description>À la carte, 5 €</description>") {
		t.Errorf("fixture: %q", got)
	}
}

func TestStripXMLDeclaration(t *testing.T) {
	expectEach(t, stripXMLDeclaration, map[string]string{
		"\ufeff<?xml version=\"1.0\" encoding=\"UTF-16\"?><rss/>": "<rss/>",
		"<?xml version='1.0'?>\n<feed/>":                          "\n<feed/>",
		"<?xml-stylesheet href=\"a.xsl\"?><rss/>":                 "<?xml-stylesheet href=\"a.xsl\"?><rss/>",
		" <?xml version=\"1.0\"?><rss/>":                          " <?xml version=\"1.0\"?><rss/>",
		"<?xml version=\"1.0\"":                                   "<?xml version=\"1.0\"",
	})
}

func TestValidUTF8(t *testing.T) {
	expectEach(t, func(input string) bool { return validUTF8([]byte(input)) }, map[string]bool{
		"":               true,
		"abc":            true,
		"caf\xc3\xa9":    true,
		"caf\xc3":        true, // cut in a character
		"\xe2\x9c":       true,
		"\xf0\x9f\x98":   true,
		"caf\xe9":        true, // as far as can be told, a character cut at the end
		"caf\xe9 more":   false,
		"\xc3\xa9\xff":   false,
		"\x93quoted\x94": false,
	})
}

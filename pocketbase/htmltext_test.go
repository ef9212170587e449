package main

import (
	"strings"
	"testing"
)

// expectEach checks fn against a table of inputs and the outputs wanted for them.
func expectEach[In, Out comparable](t *testing.T, fn func(In) Out, cases map[In]Out) {
	t.Helper()
	for input, want := range cases {
		if got := fn(input); got != want {
			t.Errorf("%#v: got %#v, want %#v", input, got, want)
		}
	}
}

func TestHTMLToText(t *testing.T) {
	expectEach(t, func(input string) string { return htmlToText(input, 1000) }, map[string]string{
		"<p>One</p><p>Two<br/>Three</p><ul><li>Four</li></ul>":                                               "One Two Three Four",
		"H<b>e</b>l<i>lo</i> <a href='x'>world</a>":                                                          "Hello world",
		"a<script>if (x < 1) { document.write('</p>') }</script>b<STYLE>p{}</STYLE>c<!-- <p>hidden</p> -->d": "a b c d",
		"before<script>never closed":                                                                         "before",
		"x<script src='a.js'/>y":                                                                             "xy",
		"<textarea><b>kept</b> as text</textarea>":                                                           "kept as text",
		"1 < 2 and 3 <> 4 <3":                                                                                "1 < 2 and 3 <> 4 <3",
		`<a title="a > b" href='c>d'>link</a> after`:                                                         "link after",
		"&lt;script&gt;alert(1)&lt;/script&gt; &amp; more":                                                   "<script>alert(1)</script> & more",
		"&amp;amp; &copy 2025 &#x1F600; &#0;":                                                                "&amp; © 2025 😀 \ufffd",
		"  a \n\t b&nbsp;&nbsp;c\u00a0 \u200b\x01":                                                           "a b c",
		"": "",
	})

	// Capped in characters, never in the middle of one; huge fragments are not read to the end.
	if got := htmlToText(strings.Repeat("😀", 1500), 1000); got != strings.Repeat("😀", 1000) {
		t.Errorf("emoji cap: %d bytes", len(got))
	}
	if got := htmlToText("<p>"+strings.Repeat("word ", 200_000)+"</p>", 10); got != "word word" {
		t.Errorf("cap: %q", got)
	}
}

func TestHTTPURL(t *testing.T) {
	base := parseBaseURL("https://feed.example/news/feed.xml")
	expectEach(t, func(value string) string { return httpURL(value, base) }, map[string]string{
		"  HTTPS://Upper.example/x  ": "HTTPS://Upper.example/x",
		"/relative/path":              "https://feed.example/relative/path",
		"item?id=1":                   "https://feed.example/news/item?id=1",
		"//other.example/x":           "https://other.example/x",
		"javascript:alert(1)":         "",
		"data:text/html,hi":           "",
		"mailto:a@example.com":        "",
		"http:///path":                "",
		"https://user:pw@x.example/":  "",
		"https://x.example/\x00":      "",
		"":                            "",
	})
	if got := httpURL("/relative", nil); got != "" {
		t.Errorf("without a base: %q", got)
	}
	if parseBaseURL("ftp://x.example/") != nil || parseBaseURL("not a url") != nil {
		t.Error("only http(s) addresses are bases")
	}
}

package main

// Plain text for what the hooks show: HTML fragments reduced to text with golang.org/x/net/html's
// tokenizer (the HTML standard's tokenizer, linear in the input), then tidied and capped.

import (
	"net/url"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

const (
	// parseInputMaxBytes caps every document the parsers read; the rest is ignored.
	parseInputMaxBytes = 512 * 1024
	// htmlTextBudget is how much raw text is collected from an HTML fragment: enough for 1,000
	// characters after whitespace is collapsed, without reading a huge fragment to its end.
	htmlTextBudget = 16 * 1000
	// urlMaxChars caps links and image addresses.
	urlMaxChars = 2048
)

// breakingTags separate words ("one<br>two" reads "one two"); other tags join ("H<b>e</b>llo").
var breakingTags = map[atom.Atom]bool{
	atom.Address: true, atom.Article: true, atom.Aside: true, atom.Blockquote: true, atom.Br: true,
	atom.Dd: true, atom.Div: true, atom.Dl: true, atom.Dt: true, atom.Figcaption: true,
	atom.Figure: true, atom.Footer: true, atom.H1: true, atom.H2: true, atom.H3: true, atom.H4: true,
	atom.H5: true, atom.H6: true, atom.Header: true, atom.Hr: true, atom.Img: true, atom.Li: true,
	atom.Main: true, atom.Nav: true, atom.Ol: true, atom.P: true, atom.Pre: true, atom.Section: true,
	atom.Table: true, atom.Tbody: true, atom.Td: true, atom.Tfoot: true, atom.Th: true,
	atom.Thead: true, atom.Tr: true, atom.Ul: true,
}

// htmlToText is the plain text of an HTML fragment: <script> and <style> removed with their
// contents, comments and every other tag removed, character references decoded (once), then
// tidied and cut to maxChars characters.
func htmlToText(fragment string, maxChars int) string {
	if fragment == "" {
		return ""
	}
	z := html.NewTokenizer(strings.NewReader(capBytes(fragment, parseInputMaxBytes)))
	var b strings.Builder
	for b.Len() < htmlTextBudget {
		tt := z.Next()
		switch tt {
		case html.ErrorToken:
			return tidyText(b.String(), maxChars)
		case html.TextToken:
			b.Write(z.Text())
		case html.CommentToken:
			b.WriteByte(' ')
		case html.StartTagToken, html.SelfClosingTagToken, html.EndTagToken:
			name, _ := z.TagName()
			tag := atom.Lookup(name)
			if tt == html.StartTagToken && (tag == atom.Script || tag == atom.Style) {
				// Code, not text: the tokenizer hands its contents over as one raw text token.
				if z.Next() == html.ErrorToken {
					return tidyText(b.String(), maxChars)
				}
				b.WriteByte(' ')
				continue
			}
			if tt != html.EndTagToken {
				// Elements such as <title> or <textarea> hold markup here, not raw text.
				z.NextIsNotRawText()
			}
			if breakingTags[tag] {
				b.WriteByte(' ')
			}
		}
	}
	return tidyText(b.String(), maxChars)
}

// tidyText removes control and invisible formatting characters, collapses whitespace (including
// no-break spaces) to single spaces, trims, and keeps at most maxChars characters.
func tidyText(text string, maxChars int) string {
	var b strings.Builder
	chars := 0
	pendingSpace := false
	for _, r := range text {
		if chars >= maxChars {
			break
		}
		switch {
		case isHiddenChar(r):
			continue
		case unicode.IsSpace(r):
			pendingSpace = chars > 0
			continue
		}
		if pendingSpace {
			b.WriteByte(' ')
			chars++
			pendingSpace = false
			if chars >= maxChars {
				break
			}
		}
		b.WriteRune(r)
		chars++
	}
	return strings.TrimRight(b.String(), " ")
}

// isHiddenChar reports control characters other than whitespace, zero-width spaces and byte
// order marks.
func isHiddenChar(r rune) bool {
	switch {
	case r <= 0x08, r >= 0x0e && r <= 0x1f, r >= 0x7f && r <= 0x9f:
		return true
	case r == 0x200b, r == 0xfeff:
		return true
	}
	return false
}

// capBytes cuts text to at most maxBytes bytes, at a character boundary.
func capBytes(text string, maxBytes int) string {
	if len(text) <= maxBytes {
		return text
	}
	cut := maxBytes
	for cut > 0 && !utf8.RuneStart(text[cut]) {
		cut--
	}
	return text[:cut]
}

// capChars keeps at most maxChars characters of text.
func capChars(text string, maxChars int) string {
	chars := 0
	for i := range text {
		if chars == maxChars {
			return strings.TrimSpace(text[:i])
		}
		chars++
	}
	return text
}

// parseBaseURL reads the address a document was fetched from; relative links in it are resolved
// against it. Only absolute http(s) addresses count; anything else gives nil.
func parseBaseURL(raw string) *url.URL {
	base, err := url.Parse(strings.TrimSpace(raw))
	if err != nil || !isHTTPURL(base) {
		return nil
	}
	return base
}

func isHTTPURL(u *url.URL) bool {
	scheme := strings.ToLower(u.Scheme)
	return (scheme == "http" || scheme == "https") && u.Host != "" && u.Opaque == "" && u.User == nil
}

// httpURL is value as an absolute http(s) address, or "": absolute addresses are kept as
// written, relative ones are resolved against base (when there is one). Other schemes
// (javascript:, data:, ...) and addresses longer than 2,048 characters give "".
func httpURL(value string, base *url.URL) string {
	value = strings.TrimSpace(value)
	if value == "" || len(value) > urlMaxChars || strings.ContainsFunc(value, unicode.IsControl) {
		return ""
	}
	ref, err := url.Parse(value)
	if err != nil {
		return ""
	}
	if ref.IsAbs() {
		if isHTTPURL(ref) {
			return value
		}
		return ""
	}
	if base == nil {
		return ""
	}
	resolved := base.ResolveReference(ref)
	if !isHTTPURL(resolved) {
		return ""
	}
	if text := resolved.String(); len(text) <= urlMaxChars {
		return text
	}
	return ""
}

package main

// The link preview's reader ($parsePreview, for POST /api/chat/link-preview): the title,
// description and image of an HTML page, read with golang.org/x/net/html's tokenizer (so
// comments, <script>, <style> and <textarea> contents, and quoting of every kind are read as
// browsers read them), from its <title>, <meta> and <base> tags:
//
//   - title: og:title, else twitter:title, else <title>;
//   - description: og:description, else twitter:description, else <meta name="description">;
//   - image: og:image (or og:image:url, og:image:secure_url), else twitter:image (or
//     twitter:image:src), resolved against <base href> or the page's address; only http(s).
//
// For each, the first tag with a non-blank value wins. Tags inside <template> or <svg>/<math>
// are not the page's. Title and description are tidied and cut to 300 and 1,000 characters.

import (
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

const (
	previewTitleMaxChars       = 300
	previewDescriptionMaxChars = 1000
	// previewTagMaxBytes skips <meta> tags longer than any real one, so that a hostile page
	// costs no more than reading it.
	previewTagMaxBytes = 8 * 1024
)

// pagePreview is what a page shows in a preview; Image is an absolute http(s) address or "".
type pagePreview struct {
	Title       string `json:"title"`
	Description string `json:"description"`
	Image       string `json:"image"`
}

// The <meta> names and properties read, and what they give, in order of preference.
var previewMetaKeys = map[string]string{
	"og:title":            "og:title",
	"twitter:title":       "twitter:title",
	"og:description":      "og:description",
	"twitter:description": "twitter:description",
	"description":         "description",
	"og:image":            "og:image",
	"og:image:url":        "og:image",
	"og:image:secure_url": "og:image",
	"twitter:image":       "twitter:image",
	"twitter:image:src":   "twitter:image",
}

// parsePreviewBytes reads a fetched page, decoded by its byte order mark, Content-Type charset,
// <meta> charset, else as UTF-8 or windows-1252 (decodeHTML).
func parsePreviewBytes(raw []byte, contentType, pageURL string) pagePreview {
	if len(raw) > parseInputMaxBytes {
		raw = raw[:parseInputMaxBytes]
	}
	return parsePreviewText(decodeHTML(raw, contentType), pageURL)
}

// parsePreviewText reads a page that is already text. Only its first 512 KB are read.
func parsePreviewText(page, pageURL string) pagePreview {
	z := html.NewTokenizer(strings.NewReader(capBytes(page, parseInputMaxBytes)))
	base := parseBaseURL(pageURL)
	baseSeen := false
	found := map[string]string{}
	titleSeen := false
	var title string
	hidden := 0 // depth inside <template>, <svg> and <math>

	for {
		tt := z.Next()
		if tt == html.ErrorToken {
			break
		}
		if tt != html.StartTagToken && tt != html.SelfClosingTagToken && tt != html.EndTagToken {
			continue
		}
		raw := len(z.Raw())
		name, hasAttr := z.TagName()
		tag := atom.Lookup(name)

		switch {
		case tag == atom.Template || tag == atom.Svg || tag == atom.Math:
			if tt == html.StartTagToken {
				hidden++
			} else if tt == html.EndTagToken && hidden > 0 {
				hidden--
			}
		case tt == html.EndTagToken || hidden > 0:
		case tag == atom.Title && !titleSeen:
			// The tokenizer hands the title's text over as one token (entities decoded).
			titleSeen = true
			if z.Next() == html.TextToken {
				title = string(z.Text())
			}
		case tag == atom.Meta && hasAttr && raw <= previewTagMaxBytes:
			readPreviewMeta(z, found)
		case tag == atom.Base && hasAttr && !baseSeen:
			baseSeen = true
			if href := httpURL(tagAttributes(z)["href"], base); href != "" {
				base = parseBaseURL(href)
			}
		}
	}

	return pagePreview{
		Title: firstOf(
			func() string { return tidyText(found["og:title"], previewTitleMaxChars) },
			func() string { return tidyText(found["twitter:title"], previewTitleMaxChars) },
			func() string { return tidyText(title, previewTitleMaxChars) },
		),
		Description: firstOf(
			func() string { return tidyText(found["og:description"], previewDescriptionMaxChars) },
			func() string { return tidyText(found["twitter:description"], previewDescriptionMaxChars) },
			func() string { return tidyText(found["description"], previewDescriptionMaxChars) },
		),
		Image: firstOf(
			func() string { return httpURL(found["og:image"], base) },
			func() string { return httpURL(found["twitter:image"], base) },
		),
	}
}

// readPreviewMeta records the content of a <meta property|name=... content=...> tag that gives
// a field not yet found.
func readPreviewMeta(z *html.Tokenizer, found map[string]string) {
	attrs := tagAttributes(z)
	key := strings.TrimSpace(attrs["property"])
	if key == "" {
		key = strings.TrimSpace(attrs["name"])
	}
	field, ok := previewMetaKeys[strings.ToLower(key)]
	if !ok || found[field] != "" {
		return
	}
	if content := strings.TrimSpace(attrs["content"]); content != "" {
		found[field] = content
	}
}

// tagAttributes are the current tag's attributes, names lowercase, values decoded; the first
// of a repeated name wins, as in browsers.
func tagAttributes(z *html.Tokenizer) map[string]string {
	attrs := map[string]string{}
	for more := true; more; {
		var key, value []byte
		key, value, more = z.TagAttr()
		if _, seen := attrs[string(key)]; !seen && len(key) > 0 {
			attrs[string(key)] = string(value)
		}
	}
	return attrs
}

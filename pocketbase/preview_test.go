package main

import (
	"strings"
	"testing"
	"time"
)

func expectPreview(t *testing.T, name string, got, want pagePreview) {
	t.Helper()
	if got != want {
		t.Errorf("%s:\n got %+v\nwant %+v", name, got, want)
	}
}

func TestPreviewOpenGraphBeforeTwitterBeforePlainTags(t *testing.T) {
	got := parsePreviewBytes(fixture(t, "page-og-twitter.html"), "text/html; charset=utf-8", "https://site.example/articles/2026/post.html")
	expectPreview(t, "og and twitter", got, pagePreview{
		Title:       "Open Graph title",
		Description: "Twitter description wins over the plain one",
		Image:       "https://site.example/articles/images/og.png?size=large&v=2", // relative: resolved against the page
	})

	got = parsePreviewBytes(fixture(t, "page-twitter-only.html"), "text/html", "https://site.example/page")
	expectPreview(t, "twitter only, with <base href>", got, pagePreview{
		Title: "Twitter title",
		Image: "https://cdn.example/assets/cards/card.jpg",
	})
}

func TestPreviewCharsets(t *testing.T) {
	latin1 := fixture(t, "page-latin1-meta.html")
	want := pagePreview{Title: "Café crème brûlée", Description: "Prix : 5 €"}
	// Declared by <meta charset>; the header saying nothing, the same, or wrongly UTF-8.
	for _, contentType := range []string{"text/html", "text/html; charset=ISO-8859-1", "text/html; charset=utf-8", ""} {
		expectPreview(t, "latin-1 page served as "+contentType, parsePreviewBytes(latin1, contentType, ""), want)
	}

	expectPreview(t, "windows-1252 by http-equiv",
		parsePreviewBytes(fixture(t, "page-windows1252-http-equiv.html"), "text/html", ""),
		pagePreview{Title: "“Quoted” – en dash"})

	// No declaration anywhere and not UTF-8: windows-1252, as browsers read it.
	expectPreview(t, "undeclared", parsePreviewBytes([]byte("<title>Na\xefve r\xe9sum\xe9</title>"), "text/html", ""),
		pagePreview{Title: "Naïve résumé"})

	// The header wins over <meta> when the bytes fit it.
	page := []byte(`<meta charset="windows-1252"><title>Caf` + "\xc3\xa9" + `</title>`)
	expectPreview(t, "header", parsePreviewBytes(page, "text/html; charset=utf-8", ""), pagePreview{Title: "Café"})
	expectPreview(t, "meta", parsePreviewBytes(page, "text/html", ""), pagePreview{Title: "CafÃ©"})

	// A page cut in the middle of a character is still UTF-8.
	cut := []byte("<title>Grüße ✓</title><meta name=description content=\"✓")
	expectPreview(t, "cut", parsePreviewBytes(cut[:len(cut)-1], "text/html", ""), pagePreview{Title: "Grüße ✓"})
}

func TestPreviewMissingTitle(t *testing.T) {
	expectPreview(t, "no title", parsePreviewBytes(fixture(t, "page-no-title.html"), "text/html", ""),
		pagePreview{Description: "Only a description."})
	expectPreview(t, "nothing", parsePreviewText("<html><body><p>Nothing to preview</p></body></html>", ""), pagePreview{})
	expectPreview(t, "empty", parsePreviewText("", "https://x.example/"), pagePreview{})
	// Blank values do not count: the next candidate is taken.
	expectPreview(t, "blank og:title",
		parsePreviewText(`<meta property="og:title" content="  "><meta property="og:title" content="Second"><title>Plain</title>`, ""),
		pagePreview{Title: "Second"})
}

func TestPreviewReadsTagsAsBrowsersDo(t *testing.T) {
	got := parsePreviewBytes(fixture(t, "page-tricky.html"), "text/html", "https://tricky.example/a/b")
	expectPreview(t, "tricky", got, pagePreview{
		Title:       "The & real title",
		Description: "After <body>, still read",
		Image:       "https://tricky.example/real.png", // data: and javascript: images are refused
	})

	// Character references are decoded once, in attributes as in text.
	got = parsePreviewText(`<title>A &amp;amp; B</title><meta property="og:description" content="Caf&eacute; &copy 2025 &#0; AT&T &lt;b&gt;">`, "")
	expectPreview(t, "entities", got, pagePreview{Title: "A &amp; B", Description: "Café © 2025 \ufffd AT&T <b>"})

	// Control characters are removed, whitespace collapsed, titles and descriptions capped.
	got = parsePreviewText("<title>\x01Tab\tand\u00a0nbsp\u200b</title><meta name=description content=\""+strings.Repeat("d", 1500)+"\">", "")
	if got.Title != "Tab and nbsp" || len(got.Description) != 1000 {
		t.Errorf("tidy: %q, %d", got.Title, len(got.Description))
	}
	if got := parsePreviewText("<title>"+strings.Repeat("😀", 400)+"</title>", ""); got.Title != strings.Repeat("😀", 300) {
		t.Errorf("title cap: %d bytes", len(got.Title))
	}

	// Image addresses: only http(s), at most 2,048 characters; without a page address only
	// absolute ones.
	for content, want := range map[string]string{
		"//cdn.example/x.png":                            "https://cdn.example/x.png",
		"HTTPS://Upper.example/x.png":                    "HTTPS://Upper.example/x.png",
		"ftp://files.example/x.png":                      "",
		"https://x.example/" + strings.Repeat("a", 2048): "",
		"  /spaced.png  ":                                "https://page.example/spaced.png",
	} {
		if got := parsePreviewText(`<meta property="og:image" content="`+content+`">`, "https://page.example/dir/"); got.Image != want {
			t.Errorf("image %q: got %q, want %q", content, got.Image, want)
		}
	}
	if got := parsePreviewText(`<meta property="og:image" content="/relative.png">`, ""); got.Image != "" {
		t.Errorf("relative image without a page address: %q", got.Image)
	}
}

func TestPreviewHugeInputIsTruncated(t *testing.T) {
	page := "<title>Start</title>" + strings.Repeat("<p>padding</p>", 150_000) + `<meta property="og:title" content="Too late">`
	started := time.Now()
	got := parsePreviewBytes([]byte(page), "text/html", "")
	if got.Title != "Start" {
		t.Errorf("got %+v", got)
	}

	hostile := "<title>Hostile</title>" + strings.Repeat("<meta a='b ", 20_000) +
		strings.Repeat("<meta content "+strings.Repeat("a ", 2000)+">", 60) +
		strings.Repeat(`<meta property="og:description" content="`+strings.Repeat("x", 9000)+`">`, 40)
	if got := parsePreviewText(hostile, ""); got.Title != "Hostile" || got.Description != "" {
		t.Errorf("hostile: got %.80q", got.Title+" | "+got.Description)
	}
	if elapsed := time.Since(started); elapsed > 2*time.Second {
		t.Errorf("took %v", elapsed)
	}
}

// A page of 512 KB with its tags in the head.
func BenchmarkParsePreview512KB(b *testing.B) {
	page := `<html><head><title>Bench</title><meta property="og:title" content="Bench page"><meta name="description" content="A page.">` +
		`<script>` + strings.Repeat("var x = '<meta>';", 2000) + `</script></head><body>`
	page += strings.Repeat(`<div class="row"><p>Some <b>text</b> &amp; <a href="/x">links</a></p></div>`, (512*1024-len(page))/80)
	raw := []byte(page)
	b.SetBytes(int64(len(raw)))
	for b.Loop() {
		if got := parsePreviewBytes(raw, "text/html", "https://bench.example/"); got.Title != "Bench page" {
			b.Fatal(got)
		}
	}
}

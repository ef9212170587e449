package main

import (
	"bytes"
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/dop251/goja"
)

func runJS(t *testing.T, vm *goja.Runtime, script string) string {
	t.Helper()
	v, err := vm.RunString(script)
	if err != nil {
		t.Fatalf("%s: %v", script, err)
	}
	return v.String()
}

func TestParseFeedFromJS(t *testing.T) {
	vm := goja.New()
	bindParsers(vm)
	_ = vm.Set("latin1", vm.NewArrayBuffer(fixture(t, "feed-latin1.xml")))

	got := runJS(t, vm, `JSON.stringify([
		$parseFeed("<rss><channel><item><title>A</title><link>/a</link></item><item><title>B</title></item></channel></rss>",
			"https://f.example/news/feed.xml", {limit: 1}),
		$parseFeed(latin1, null, {contentType: "application/rss+xml"}),
		$parseFeed(new Uint8Array(latin1)),
		$parseFeed("not a feed", undefined, {}),
	])`)
	want := `[` +
		`{"format":"rss","items":[{"id":"https://f.example/a","title":"A","description":"","pubDate":"","link":"https://f.example/a"}]},` +
		`{"format":"rss","items":[{"id":"latin-1","title":"Café crème","description":"À la carte, 5 €","pubDate":"","link":""}]},` +
		`{"format":"rss","items":[{"id":"latin-1","title":"Café crème","description":"À la carte, 5 €","pubDate":"","link":""}]},` +
		`{"format":"","items":[]}]`
	if got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
}

func TestParsePreviewFromJS(t *testing.T) {
	vm := goja.New()
	bindParsers(vm)
	_ = vm.Set("latin1", vm.NewArrayBuffer(fixture(t, "page-latin1-meta.html")))

	got := runJS(t, vm, `JSON.stringify([
		$parsePreview(latin1, "https://p.example/", "text/html"),
		$parsePreview('<title>T</title><meta property="og:image" content="i.png">', "https://p.example/dir/page"),
		$parsePreview(""),
	])`)
	want := `[{"title":"Café crème brûlée","description":"Prix : 5 €","image":""},` +
		`{"title":"T","description":"","image":"https://p.example/dir/i.png"},` +
		`{"title":"","description":"","image":""}]`
	if got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
}

func TestParsersRefuseWrongArgumentsWithTypeErrors(t *testing.T) {
	vm := goja.New()
	bindParsers(vm)
	for _, call := range []string{
		`$parseFeed()`, `$parseFeed(42)`, `$parseFeed({})`, `$parseFeed("x", 5)`, `$parseFeed("x", "", "options")`,
		`$parseFeed("x", "", {limit: -1})`, `$parseFeed("x", "", {limit: 1.5})`, `$parseFeed("x", "", {limit: "3"})`,
		`$parseFeed("x", "", {contentType: 1})`, `$parsePreview(null)`, `$parsePreview("x", {})`, `$parsePreview("x", "", 5)`,
	} {
		got := runJS(t, vm, `try { `+call+`; "no error" } catch (e) { e instanceof TypeError ? "TypeError" : String(e) }`)
		if got != "TypeError" {
			t.Errorf("%s: %s", call, got)
		}
	}
}

func TestSafeFetchRawBodyForTheParsers(t *testing.T) {
	page := fixture(t, "page-latin1-meta.html")
	site := newTestServer(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8") // wrong: the page is ISO-8859-1
		_, _ = w.Write(page)
	}))
	vm := goja.New()
	bindSafeFetch(vm, newTestFetcher(t, site.hostPort()))
	bindParsers(vm)
	_ = vm.Set("pageUrl", site.URL+"/page")

	got := runJS(t, vm, `
		const res = $safeFetch({url: pageUrl, accept: ["text/html"], raw: true});
		const bytes = new Uint8Array(res.body);
		JSON.stringify([res.bodyEncoding, res.body instanceof ArrayBuffer, bytes.length, bytes[49],
			$parsePreview(res.body, res.finalUrl, res.headers["content-type"])]);`)
	want := `["bytes",true,` + itoa(len(page)) + `,233,{"title":"Café crème brûlée","description":"Prix : 5 €","image":""}]`
	if got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}

	got = runJS(t, vm, `try { $safeFetch({url: pageUrl, raw: "yes"}); "no error" } catch (e) { e.code }`)
	if got != codeInvalidURL {
		t.Errorf("raw: \"yes\": %s", got)
	}
}

func itoa(n int) string {
	b, _ := json.Marshal(n)
	return string(b)
}

func TestParseCommand(t *testing.T) {
	run := func(input []byte, args ...string) (int, string, string) {
		var out, errOut bytes.Buffer
		status := runParseCommand(args, bytes.NewReader(input), &out, &errOut)
		return status, out.String(), errOut.String()
	}

	status, out, _ := run(fixture(t, "feed-cdata-entities.xml"), "feed", "--url", "https://news.example/feed.xml", "--limit", "1")
	if status != 0 || out != `{"format":"rss","items":[{"id":"fish-1","title":"Fish & Chips tonight","description":"Crispy & hot — see the menu","pubDate":"Sun, 22 Nov 2026 16:00:00 GMT","link":"https://news.example/menu/fish?a=1&b=2"}]}`+"\n" {
		t.Errorf("feed: %d %s", status, out)
	}
	status, out, _ = run(fixture(t, "page-windows1252-http-equiv.html"), "page", "--content-type", "text/html")
	if status != 0 || out != `{"title":"“Quoted” – en dash","description":"","image":""}`+"\n" {
		t.Errorf("page: %d %s", status, out)
	}
	status, out, _ = run([]byte("<p>One</p><p>Two &amp; <script>x</script>three</p>"), "html-text")
	if status != 0 || out != `{"text":"One Two & three"}`+"\n" {
		t.Errorf("html-text: %d %s", status, out)
	}
	status, out, _ = run([]byte("&lt;b&gt; &AMP; &unknown;"), "html-entities")
	if status != 0 || out != `{"text":"<b> & &unknown;"}`+"\n" {
		t.Errorf("html-entities: %d %s", status, out)
	}

	for _, args := range [][]string{{}, {"nothing"}, {"feed", "--limit", "-1"}, {"feed", "--bad"}, {"feed", "extra"}} {
		if status, _, errOut := run(nil, args...); status != 2 || !strings.Contains(errOut, "usage: pocketbase parse") {
			t.Errorf("%v: %d %s", args, status, errOut)
		}
	}
}

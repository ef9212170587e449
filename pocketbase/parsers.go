package main

// The parsers as the JS hooks see them (registered in the jsvm OnInit with $safeFetch), and as
// the `pocketbase parse` command prints them.
//
//	const feed = $parseFeed(res.body, res.finalUrl, {limit: 30, contentType: res.headers["content-type"]})
//	// feed: {format: "rss" | "atom" | "json" | "", items: [{id, title, description, pubDate, link}]}
//
//	const page = $parsePreview(res.body, res.finalUrl, res.headers["content-type"])
//	// page: {title, description, image}
//
// The body is a string (text, used as it is) or an ArrayBuffer (bytes, as $safeFetch answers
// with raw: true: decoded by the document's charset, see charsets.go). The base URL (optional)
// is the document's address, against which relative links and images are resolved. Wrong
// argument types throw a TypeError.
//
// `pocketbase parse feed|page|html-text|html-entities [--url URL] [--content-type TYPE]
// [--limit N] < document` prints, as JSON, what the hooks read from a saved feed or page (to see
// why a feed shows nothing, and for the tests of pb_hooks/lib/feed.js): feed and page as above,
// html-text the plain text a feed description becomes ({"text"}), html-entities the text with
// its character references decoded ({"text"}).

import (
	"encoding/json"
	"flag"
	"fmt"
	"html"
	"io"
	"math"

	"github.com/dop251/goja"
)

// parseCommandMaxBytes caps what `pocketbase parse` reads from its input; the parsers read the
// first 512 KB of it.
const parseCommandMaxBytes = 16 * 1024 * 1024

// documentBody is a hook's body argument: text, or bytes still to decode.
type documentBody struct {
	text    string
	raw     []byte
	isBytes bool
}

func bindParsers(vm *goja.Runtime) {
	_ = vm.Set("$parseFeed", func(call goja.FunctionCall) goja.Value {
		body := bodyArgument(vm, "$parseFeed", call.Argument(0))
		baseURL := stringArgument(vm, "$parseFeed", "baseUrl", call.Argument(1))
		limit, contentType := feedOptions(vm, call.Argument(2))

		var result feedResult
		if body.isBytes {
			result = parseFeedBytes(body.raw, contentType, baseURL, limit)
		} else {
			result = parseFeedText(body.text, baseURL, limit)
		}

		items := make([]any, len(result.Items))
		for i, item := range result.Items {
			obj := vm.NewObject()
			_ = obj.Set("id", item.ID)
			_ = obj.Set("title", item.Title)
			_ = obj.Set("description", item.Description)
			_ = obj.Set("pubDate", item.PubDate)
			_ = obj.Set("link", item.Link)
			items[i] = obj
		}
		obj := vm.NewObject()
		_ = obj.Set("format", result.Format)
		_ = obj.Set("items", vm.NewArray(items...))
		return obj
	})

	_ = vm.Set("$parsePreview", func(call goja.FunctionCall) goja.Value {
		body := bodyArgument(vm, "$parsePreview", call.Argument(0))
		pageURL := stringArgument(vm, "$parsePreview", "baseUrl", call.Argument(1))
		contentType := stringArgument(vm, "$parsePreview", "contentType", call.Argument(2))

		var page pagePreview
		if body.isBytes {
			page = parsePreviewBytes(body.raw, contentType, pageURL)
		} else {
			page = parsePreviewText(body.text, pageURL)
		}
		obj := vm.NewObject()
		_ = obj.Set("title", page.Title)
		_ = obj.Set("description", page.Description)
		_ = obj.Set("image", page.Image)
		return obj
	})
}

func bodyArgument(vm *goja.Runtime, fn string, arg goja.Value) documentBody {
	switch v := arg.Export().(type) {
	case string:
		return documentBody{text: v}
	case goja.ArrayBuffer:
		return documentBody{raw: v.Bytes(), isBytes: true}
	case []byte:
		return documentBody{raw: v, isBytes: true}
	}
	panic(vm.NewTypeError("%s: the body must be a string or an ArrayBuffer", fn))
}

// stringArgument reads an optional string argument ("" when undefined or null).
func stringArgument(vm *goja.Runtime, fn, name string, arg goja.Value) string {
	if goja.IsUndefined(arg) || goja.IsNull(arg) {
		return ""
	}
	s, ok := arg.Export().(string)
	if !ok {
		panic(vm.NewTypeError("%s: %s must be a string", fn, name))
	}
	return s
}

// feedOptions reads {limit, contentType}: limit is a whole number (default 30, at most 100).
func feedOptions(vm *goja.Runtime, arg goja.Value) (limit int, contentType string) {
	limit = feedDefaultLimit
	if goja.IsUndefined(arg) || goja.IsNull(arg) {
		return limit, ""
	}
	options, ok := arg.Export().(map[string]any)
	if !ok {
		panic(vm.NewTypeError("$parseFeed: options must be an object"))
	}
	if v, present := options["limit"]; present && v != nil {
		n, ok := toNumber(v)
		if !ok || n < 0 || n != math.Trunc(n) {
			panic(vm.NewTypeError("$parseFeed: limit must be a whole number of at least 0"))
		}
		limit = int(min(n, feedMaxLimit))
	}
	if v, present := options["contentType"]; present && v != nil {
		if contentType, ok = v.(string); !ok {
			panic(vm.NewTypeError("$parseFeed: contentType must be a string"))
		}
	}
	return limit, contentType
}

// runParseCommand runs `pocketbase parse ...` and answers the exit status.
func runParseCommand(args []string, in io.Reader, out, errOut io.Writer) int {
	usage := func() int {
		fmt.Fprintln(errOut, "usage: pocketbase parse feed|page|html-text|html-entities [--url URL] [--content-type TYPE] [--limit N] < document")
		return 2
	}
	if len(args) == 0 {
		return usage()
	}
	kind := args[0]
	flags := flag.NewFlagSet("parse "+kind, flag.ContinueOnError)
	flags.SetOutput(errOut)
	pageURL := flags.String("url", "", "the document's address, for relative links and images")
	contentType := flags.String("content-type", "", "the Content-Type the document was served with")
	limit := flags.Int("limit", feedDefaultLimit, "how many feed items to read (at most 100)")
	if err := flags.Parse(args[1:]); err != nil || flags.NArg() > 0 || *limit < 0 {
		return usage()
	}

	raw, err := io.ReadAll(io.LimitReader(in, parseCommandMaxBytes))
	if err != nil {
		fmt.Fprintln(errOut, "cannot read the document:", err)
		return 1
	}

	var result any
	switch kind {
	case "feed":
		result = parseFeedBytes(raw, *contentType, *pageURL, *limit)
	case "page":
		result = parsePreviewBytes(raw, *contentType, *pageURL)
	case "html-text":
		result = map[string]string{"text": htmlToText(string(raw), feedTextMaxChars)}
	case "html-entities":
		result = map[string]string{"text": html.UnescapeString(string(raw))}
	default:
		return usage()
	}
	encoder := json.NewEncoder(out)
	encoder.SetEscapeHTML(false)
	if err := encoder.Encode(result); err != nil {
		fmt.Fprintln(errOut, "cannot write the result:", err)
		return 1
	}
	return 0
}

package main

// The safe fetch's limits: size, time, redirects, content types and busy slots (the test server and
// fetcher helpers are in safefetch_test.go).

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"
)

func TestFetchLimits(t *testing.T) {
	big := strings.Repeat("a", 10*1024*1024)
	release := make(chan struct{})
	t.Cleanup(func() { close(release) })
	page := newTestServer(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/big":
			w.Header().Set("Content-Type", "text/html")
			_, _ = w.Write([]byte(big))
		case "/slow":
			w.Header().Set("Content-Type", "text/html")
			w.WriteHeader(200)
			_, _ = w.Write([]byte("<title>"))
			w.(http.Flusher).Flush()
			select {
			case <-release:
			case <-r.Context().Done():
			}
		case "/hang":
			select {
			case <-release:
			case <-r.Context().Done():
			}
		case "/loop":
			http.Redirect(w, r, "/loop", http.StatusFound)
		case "/json":
			w.Header().Set("Content-Type", "application/json")
			_, _ = w.Write([]byte("{}"))
		case "/png":
			w.Header().Set("Content-Type", "image/png")
			_, _ = w.Write([]byte("\x89PNG\r\n\x1a\n0000"))
		}
	}))
	f := newTestFetcher(t, page.hostPort())

	res, err := f.fetch(context.Background(), defaultOptions(page.URL+"/big"))
	if err != nil || !res.truncated || res.size != safeFetchDefaultMaxBytes || len(res.body) != safeFetchDefaultMaxBytes {
		t.Fatalf("big: %v, %+v", err, res != nil && res.truncated)
	}

	for _, path := range []string{"/slow", "/hang"} {
		opts := defaultOptions(page.URL + path)
		opts.timeout = 500 * time.Millisecond
		start := time.Now()
		_, err = f.fetch(context.Background(), opts)
		if fetchCode(err) != codeTimeout || time.Since(start) > 2*time.Second {
			t.Fatalf("%s: expected a timeout after 0.5 s, got %v after %v", path, err, time.Since(start))
		}
	}

	_, err = f.fetch(context.Background(), defaultOptions(page.URL+"/loop"))
	if fetchCode(err) != codeTooManyRedirects {
		t.Fatalf("loop: got %v", err)
	}

	opts := defaultOptions(page.URL + "/json")
	opts.accept = []string{"text/html", "application/xhtml+xml"}
	if _, err = f.fetch(context.Background(), opts); fetchCode(err) != codeContentType {
		t.Fatalf("json: got %v", err)
	}

	opts = defaultOptions(page.URL + "/png")
	opts.accept = []string{"image/*"}
	res, err = f.fetch(context.Background(), opts)
	if err != nil || res.bodyEncoding != "base64" || res.sniffedType != "image/png" || res.body != "iVBORw0KGgowMDAw" {
		t.Fatalf("png: %v %+v", err, res)
	}
}

func TestFetchBusy(t *testing.T) {
	f := newTestFetcher(t, "127.0.0.1:1")
	for i := 0; i < cap(f.slots); i++ {
		f.slots <- struct{}{}
	}
	opts := defaultOptions("http://127.0.0.1:1/")
	opts.timeout = 50 * time.Millisecond
	if _, err := f.fetch(context.Background(), opts); fetchCode(err) != codeBusy {
		t.Fatalf("expected busy, got %v", err)
	}
}

func TestAcceptsType(t *testing.T) {
	cases := []struct {
		patterns []string
		media    string
		want     bool
	}{
		{[]string{"text/html"}, "text/html", true},
		{[]string{"text/html"}, "text/plain", false},
		{[]string{"image/*"}, "image/png", true},
		{[]string{"image/*"}, "imagex/png", false},
		{[]string{"image/*"}, "", false},
		{[]string{"*/*"}, "", true},
	}
	for _, c := range cases {
		if got := acceptsType(c.patterns, c.media); got != c.want {
			t.Errorf("%v %q: got %v", c.patterns, c.media, got)
		}
	}
}

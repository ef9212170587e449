package main

import (
	"context"
	"errors"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

	"golang.org/x/net/dns/dnsmessage"
)

// testServer is a loopback HTTP server that counts its connections.
type testServer struct {
	*httptest.Server
	conns atomic.Int32
}

func newTestServer(t *testing.T, handler http.Handler) *testServer {
	t.Helper()
	s := &testServer{}
	s.Server = httptest.NewUnstartedServer(handler)
	s.Config.ConnState = func(_ net.Conn, state http.ConnState) {
		if state == http.StateNew {
			s.conns.Add(1)
		}
	}
	s.Start()
	t.Cleanup(s.Close)
	return s
}

func (s *testServer) hostPort() string { return strings.TrimPrefix(s.URL, "http://") }

func newTestFetcher(t *testing.T, allow string) *safeFetcher {
	t.Helper()
	f, err := newSafeFetcher(allow)
	if err != nil {
		t.Fatal(err)
	}
	return f
}

func fetchCode(err error) string {
	var fe *fetchError
	if errors.As(err, &fe) {
		return fe.code
	}
	return ""
}

func defaultOptions(url string) fetchOptions {
	return fetchOptions{url: url, maxBytes: safeFetchDefaultMaxBytes, timeout: safeFetchDefaultTimeout}
}

func TestFetchAllowlistedPage(t *testing.T) {
	var userAgent, cookie string
	page := newTestServer(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		userAgent, cookie = r.UserAgent(), r.Header.Get("Cookie")
		http.SetCookie(w, &http.Cookie{Name: "session", Value: "x"})
		if r.URL.Path == "/start" {
			http.Redirect(w, r, "/page#frag", http.StatusFound)
			return
		}
		w.Header().Set("Content-Type", "text/html; charset=iso-8859-1")
		_, _ = w.Write([]byte("<title>Caf\xe9</title>"))
	}))
	f := newTestFetcher(t, page.hostPort())

	res, err := f.fetch(context.Background(), defaultOptions(page.URL+"/start"))
	if err != nil {
		t.Fatal(err)
	}
	if res.status != 200 || res.body != "<title>Café</title>" || res.bodyEncoding != "text" ||
		res.contentType != "text/html" || res.finalURL != page.URL+"/page" || res.redirects != 1 || res.truncated {
		t.Fatalf("unexpected result %+v", res)
	}
	if userAgent != safeFetchUserAgent || cookie != "" {
		t.Fatalf("user agent %q, cookie %q", userAgent, cookie)
	}
}

func TestFetchRefusesWithoutConnecting(t *testing.T) {
	target := newTestServer(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = w.Write([]byte("secret"))
	}))
	page := newTestServer(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, r.URL.Query().Get("to"), http.StatusFound)
	}))
	f := newTestFetcher(t, page.hostPort())

	_, port, _ := net.SplitHostPort(target.hostPort())
	refused := []string{
		target.URL + "/",
		"http://localhost:" + port + "/",
		"http://2130706433:" + port + "/",
		"http://0x7f000001:" + port + "/",
		"http://017700000001:" + port + "/",
		"http://127.1:" + port + "/",
		"http://[::ffff:127.0.0.1]:" + port + "/",
		"http://169.254.169.254/latest/meta-data/",
		"http://10.0.0.1/",
		"http://[fe80::1]/",
		"http://[::1]/",
		"http://0.0.0.0:" + port + "/",
		page.URL + "/?to=" + target.URL + "/",
		page.URL + "/?to=http://127.0.0.2/",
		page.URL + "/?to=http://[::1]:" + port + "/",
	}
	for _, url := range refused {
		_, err := f.fetch(context.Background(), defaultOptions(url))
		if fetchCode(err) != codeBlocked {
			t.Errorf("%s: expected blocked, got %v", url, err)
		}
	}
	if n := target.conns.Load(); n != 0 {
		t.Fatalf("the refused target saw %d connections", n)
	}

	for _, url := range []string{"file:///etc/passwd", "gopher://127.0.0.1/", "ftp://127.0.0.1/", "http://user:pw@" + page.hostPort() + "/", "http:///x", "http://999.1.1.1/"} {
		if _, err := f.fetch(context.Background(), defaultOptions(url)); fetchCode(err) != codeInvalidURL {
			t.Errorf("%s: expected invalid_url, got %v", url, err)
		}
	}
	_, err := f.fetch(context.Background(), defaultOptions(page.URL+"/?to=file:///etc/passwd"))
	if fetchCode(err) != codeBadRedirect {
		t.Errorf("redirect to file: expected bad_redirect, got %v", err)
	}
}

// fakeDNS answers every A query with 127.0.0.1 and every AAAA query with ::1, like a DNS
// server an attacker controls.
func fakeDNS(t *testing.T) string {
	t.Helper()
	conn, err := net.ListenPacket("udp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	go func() {
		buf := make([]byte, 1500)
		for {
			n, from, err := conn.ReadFrom(buf)
			if err != nil {
				return
			}
			var query dnsmessage.Message
			if err := query.Unpack(buf[:n]); err != nil || len(query.Questions) != 1 {
				continue
			}
			q := query.Questions[0]
			answer := dnsmessage.Message{
				Header:    dnsmessage.Header{ID: query.ID, Response: true, Authoritative: true},
				Questions: query.Questions,
			}
			head := dnsmessage.ResourceHeader{Name: q.Name, Class: dnsmessage.ClassINET, TTL: 0}
			switch q.Type {
			case dnsmessage.TypeA:
				head.Type = q.Type
				answer.Answers = []dnsmessage.Resource{{Header: head, Body: &dnsmessage.AResource{A: [4]byte{127, 0, 0, 1}}}}
			case dnsmessage.TypeAAAA:
				head.Type = q.Type
				answer.Answers = []dnsmessage.Resource{{Header: head, Body: &dnsmessage.AAAAResource{AAAA: [16]byte{15: 1}}}}
			}
			packed, err := answer.Pack()
			if err == nil {
				_, _ = conn.WriteTo(packed, from)
			}
		}
	}()
	return conn.LocalAddr().String()
}

func TestFetchRefusesNamesResolvingToBlockedAddresses(t *testing.T) {
	target := newTestServer(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = w.Write([]byte("secret"))
	}))
	_, port, _ := net.SplitHostPort(target.hostPort())

	dns := fakeDNS(t)
	f := newTestFetcher(t, "")
	f.resolver = &net.Resolver{PreferGo: true, Dial: func(ctx context.Context, _, _ string) (net.Conn, error) {
		var d net.Dialer
		return d.DialContext(ctx, "udp", dns)
	}}

	_, err := f.fetch(context.Background(), defaultOptions("http://rebind.example:"+port+"/"))
	if fetchCode(err) != codeBlocked || !strings.Contains(err.Error(), "resolves to") {
		t.Fatalf("expected blocked, got %v", err)
	}
	if n := target.conns.Load(); n != 0 {
		t.Fatalf("the refused target saw %d connections", n)
	}
}

func TestGuardControl(t *testing.T) {
	control := guardControl(false)
	for _, address := range []string{"127.0.0.1:80", "[::1]:80", "[::ffff:127.0.0.1]:80", "10.1.2.3:443", "[fe80::1%eth0]:80", "garbage"} {
		if fetchCode(control("tcp", address, nil)) != codeBlocked {
			t.Errorf("%s: expected blocked", address)
		}
	}
	for _, address := range []string{"8.8.8.8:443", "[2606:4700:4700::1111]:80"} {
		if err := control("tcp", address, nil); err != nil {
			t.Errorf("%s: %v", address, err)
		}
	}
	if err := guardControl(true)("tcp", "127.0.0.1:80", nil); err != nil {
		t.Errorf("allowlisted: %v", err)
	}
}

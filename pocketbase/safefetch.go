package main

// $safeFetch: a guarded HTTP GET for the JS hooks (link previews, the news feed). Unlike
// $http.send it refuses every non-public address (checked on the address actually connected, so
// DNS rebinding cannot get around it), follows at most 5 redirects re-checking each hop, stops
// after a time limit and reads at most maxBytes of the body.
//
//	const res = $safeFetch({
//	    url:        "https://example.com/page",  // http or https only
//	    base:       "https://example.com/",      // optional: url is resolved against it
//	    maxBytes:   512 * 1024,                  // optional: default 512 KiB, at most 4 MiB
//	    timeoutSec: 5,                           // optional: whole fetch incl. redirects, at most 5
//	    accept:     ["text/html"],               // optional: media types (type/* allowed)
//	    raw:        true,                        // optional: body as an ArrayBuffer, undecoded
//	})
//	// res: {status, headers, contentType, body, bodyEncoding, sniffedType, size, truncated,
//	//       finalUrl, redirects}
//
// bodyEncoding says what body is: "text" (text types, decoded to UTF-8 by their charset),
// "base64" (other types) or "bytes" (an ArrayBuffer, with raw: true; $parseFeed and
// $parsePreview decode it themselves).
//
// On failure it throws an Error whose message says what happened and whose `code` is one of
// invalid_url, blocked, too_many_redirects, bad_redirect, content_type, timeout, unreachable,
// busy.
//
// The hooks' type check declares this API in types/hooks.d.ts: keep both in step.

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"
)

const (
	safeFetchUserAgent       = "ChatCrypt-LinkPreview/1.0"
	safeFetchDefaultMaxBytes = 512 * 1024
	safeFetchMaxMaxBytes     = 4 * 1024 * 1024
	safeFetchDefaultTimeout  = 5 * time.Second
	safeFetchMaxTimeout      = 5 * time.Second
	safeFetchMaxRedirects    = 5
	safeFetchMaxURLLength    = 4096
	safeFetchMaxHeaderBytes  = 64 * 1024
	safeFetchMaxAddresses    = 8
	safeFetchMaxConcurrent   = 16
)

// Error codes of a failed fetch, as seen by the hooks in err.code.
const (
	codeInvalidURL       = "invalid_url"
	codeBlocked          = "blocked"
	codeTooManyRedirects = "too_many_redirects"
	codeBadRedirect      = "bad_redirect"
	codeContentType      = "content_type"
	codeTimeout          = "timeout"
	codeUnreachable      = "unreachable"
	codeBusy             = "busy"
)

// fetchError is a failed fetch with its code.
type fetchError struct {
	code string
	msg  string
}

func (e *fetchError) Error() string { return e.msg }

func failf(code, format string, args ...any) *fetchError {
	return &fetchError{code: code, msg: fmt.Sprintf(format, args...)}
}

type fetchOptions struct {
	url      string
	base     string
	maxBytes int64
	timeout  time.Duration
	accept   []string
	raw      bool
}

type fetchResult struct {
	status       int
	headers      map[string]string
	contentType  string
	body         string
	rawBody      []byte // with fetchOptions.raw
	bodyEncoding string // "text" (decoded to UTF-8), "base64" or "bytes" (rawBody)
	sniffedType  string
	size         int
	truncated    bool
	finalURL     string
	redirects    int
}

// safeFetcher holds the allowlist and the HTTP client; one is shared by every JS runtime.
type safeFetcher struct {
	allow    []allowlistEntry
	client   *http.Client
	resolver *net.Resolver
	slots    chan struct{}
}

// newSafeFetcher builds the fetcher with the allowlist from LINK_PREVIEW_ALLOW_HOSTS.
func newSafeFetcher(allowHosts string) (*safeFetcher, error) {
	allow, err := parseAllowlist(allowHosts)
	if err != nil {
		return nil, err
	}

	f := &safeFetcher{
		allow:    allow,
		resolver: net.DefaultResolver,
		slots:    make(chan struct{}, safeFetchMaxConcurrent),
	}
	f.client = &http.Client{
		Transport: &http.Transport{
			Proxy:                  nil, // a proxy would connect on our behalf, past the guard
			DialContext:            f.dialContext,
			DisableKeepAlives:      true, // every hop dials (and is checked) anew
			MaxResponseHeaderBytes: safeFetchMaxHeaderBytes,
			TLSHandshakeTimeout:    safeFetchMaxTimeout,
			ResponseHeaderTimeout:  safeFetchMaxTimeout,
		},
		// Redirects are followed by fetch itself, so that each hop is checked.
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
		Jar:           nil, // no cookies, in either direction
	}
	return f, nil
}

// checkURL refuses URLs a fetch must not request: other schemes, credentials, bad hosts and
// hosts that are non-public addresses (or loopback names) and not allowlisted. Hosts that are
// names are checked again, on their resolved addresses, when dialing.
func (f *safeFetcher) checkURL(u *url.URL, code string) error {
	if u.Scheme != "http" && u.Scheme != "https" {
		return failf(code, "only http and https URLs can be fetched, not %q", u.Scheme)
	}
	if u.Opaque != "" || u.Host == "" {
		return failf(code, "the URL has no host")
	}
	if u.User != nil {
		return failf(code, "URLs with credentials are not fetched")
	}
	if len(u.String()) > safeFetchMaxURLLength {
		return failf(code, "the URL is longer than %d characters", safeFetchMaxURLLength)
	}

	host, err := parseFetchHost(u.Hostname())
	if err != nil {
		return failf(code, "%v", err)
	}
	port := u.Port()
	if port == "" {
		port = map[string]string{"http": "80", "https": "443"}[u.Scheme]
	} else if n, err := strconv.Atoi(port); err != nil || n < 1 || n > 65535 {
		return failf(code, "invalid port %q", port)
	}

	if allows(f.allow, host, port) {
		return nil
	}
	if host.isIP() {
		if reason := blockedReason(host.ip); reason != "" {
			return failf(codeBlocked, "%s is %s", host.name, reason)
		}
	} else if isLoopbackName(host.name) {
		return failf(codeBlocked, "%s is a loopback name", host.name)
	}
	return nil
}

// fetch GETs opts.url, following redirects itself.
func (f *safeFetcher) fetch(parent context.Context, opts fetchOptions) (*fetchResult, error) {
	ctx, cancel := context.WithTimeout(parent, opts.timeout)
	defer cancel()

	target, err := parseTargetURL(opts.url, opts.base)
	if err != nil {
		return nil, err
	}
	if err := f.checkURL(target, codeInvalidURL); err != nil {
		return nil, err
	}

	select {
	case f.slots <- struct{}{}:
		defer func() { <-f.slots }()
	case <-ctx.Done():
		return nil, failf(codeBusy, "too many fetches in progress")
	}

	for redirects := 0; ; redirects++ {
		res, err := f.get(ctx, target, opts.accept)
		if err != nil {
			return nil, classifyError(ctx, err)
		}

		location := res.Header.Get("Location")
		if isRedirect(res.StatusCode) && location != "" {
			res.Body.Close()
			if redirects >= safeFetchMaxRedirects {
				return nil, failf(codeTooManyRedirects, "more than %d redirects", safeFetchMaxRedirects)
			}
			next, err := target.Parse(location)
			if err != nil {
				return nil, failf(codeBadRedirect, "invalid redirect location")
			}
			next.Fragment, next.RawFragment = "", ""
			if err := f.checkURL(next, codeBadRedirect); err != nil {
				return nil, err
			}
			target = next
			continue
		}

		defer res.Body.Close()
		return readResult(ctx, res, target, redirects, opts)
	}
}

func (f *safeFetcher) get(ctx context.Context, target *url.URL, accept []string) (*http.Response, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, target.String(), nil)
	if err != nil {
		return nil, failf(codeInvalidURL, "invalid URL")
	}
	req.Header.Set("User-Agent", safeFetchUserAgent)
	if len(accept) > 0 {
		req.Header.Set("Accept", strings.Join(accept, ", "))
	} else {
		req.Header.Set("Accept", "*/*")
	}
	return f.client.Do(req)
}

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
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"log"
	"math"
	"mime"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"os"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/dop251/goja"
	"golang.org/x/net/html/charset"
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

// dialContext is the only way the client opens connections. It resolves the host itself,
// refuses when any address is non-public (unless the host is allowlisted) and dials the checked
// addresses; the dialer's Control hook checks the connected address once more.
func (f *safeFetcher) dialContext(ctx context.Context, network, addr string) (net.Conn, error) {
	hostText, port, err := net.SplitHostPort(addr)
	if err != nil {
		return nil, failf(codeInvalidURL, "invalid address %q", addr)
	}
	host, err := parseFetchHost(hostText)
	if err != nil {
		return nil, failf(codeInvalidURL, "%v", err)
	}
	portNumber, err := strconv.Atoi(port)
	if err != nil || portNumber < 1 || portNumber > 65535 {
		return nil, failf(codeInvalidURL, "invalid port %q", port)
	}
	allowed := allows(f.allow, host, port)

	var addrs []netip.Addr
	switch {
	case host.isIP():
		addrs = []netip.Addr{host.ip}
	case !allowed && isLoopbackName(host.name):
		return nil, failf(codeBlocked, "%s is a loopback name", host.name)
	default:
		found, err := f.resolver.LookupNetIP(ctx, "ip", host.name)
		if err != nil {
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			return nil, failf(codeUnreachable, "%s could not be resolved", host.name)
		}
		if len(found) == 0 {
			return nil, failf(codeUnreachable, "%s has no address", host.name)
		}
		if len(found) > safeFetchMaxAddresses {
			found = found[:safeFetchMaxAddresses]
		}
		addrs = found
	}

	if !allowed {
		for _, a := range addrs {
			if reason := blockedReason(a); reason != "" {
				if host.isIP() {
					return nil, failf(codeBlocked, "%s is %s", host.name, reason)
				}
				return nil, failf(codeBlocked, "%s resolves to %s, %s", host.name, a.Unmap(), reason)
			}
		}
	}

	dialer := &net.Dialer{Control: guardControl(allowed)}

	var lastErr error
	for _, a := range addrs {
		conn, err := dialer.DialContext(ctx, network, netip.AddrPortFrom(a.Unmap(), uint16(portNumber)).String())
		if err == nil {
			return conn, nil
		}
		lastErr = err
		var fe *fetchError
		if errors.As(err, &fe) || ctx.Err() != nil {
			break
		}
	}
	return nil, lastErr
}

// guardControl is the dialer's Control hook: it runs after the address is chosen and before the
// connection is made, and refuses blocked addresses (unless the host is allowlisted).
func guardControl(allowed bool) func(network, address string, c syscall.RawConn) error {
	return func(_, address string, _ syscall.RawConn) error {
		if allowed {
			return nil
		}
		ap, err := netip.ParseAddrPort(address)
		if err != nil {
			return failf(codeBlocked, "cannot check the address %q", address)
		}
		if reason := blockedReason(ap.Addr()); reason != "" {
			return failf(codeBlocked, "%s is %s", ap.Addr().Unmap(), reason)
		}
		return nil
	}
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

func readResult(ctx context.Context, res *http.Response, target *url.URL, redirects int, opts fetchOptions) (*fetchResult, error) {
	header := res.Header.Get("Content-Type")
	mediaType, params, err := mime.ParseMediaType(header)
	if err != nil {
		mediaType, params = "", nil
	}
	mediaType = strings.ToLower(mediaType)

	if len(opts.accept) > 0 && !acceptsType(opts.accept, mediaType) {
		shown := mediaType
		if shown == "" {
			shown = "none"
		}
		return nil, failf(codeContentType, "the response content type (%s) is not accepted", shown)
	}

	raw, err := io.ReadAll(io.LimitReader(res.Body, opts.maxBytes+1))
	if err != nil {
		return nil, classifyError(ctx, err)
	}
	truncated := int64(len(raw)) > opts.maxBytes
	if truncated {
		raw = raw[:opts.maxBytes]
	}

	result := &fetchResult{
		status:      res.StatusCode,
		headers:     map[string]string{},
		contentType: mediaType,
		sniffedType: sniffType(raw),
		size:        len(raw),
		truncated:   truncated,
		finalURL:    target.String(),
		redirects:   redirects,
	}
	for name, values := range res.Header {
		result.headers[strings.ToLower(name)] = strings.Join(values, ", ")
	}

	switch {
	case opts.raw:
		result.rawBody, result.bodyEncoding = raw, "bytes"
	case isTextType(mediaType):
		result.body, result.bodyEncoding = decodeText(raw, mediaType, params["charset"], header), "text"
	default:
		result.body, result.bodyEncoding = base64.StdEncoding.EncodeToString(raw), "base64"
	}
	return result, nil
}

func sniffType(raw []byte) string {
	mediaType, _, _ := mime.ParseMediaType(http.DetectContentType(raw))
	return mediaType
}

// decodeText converts a text body to UTF-8: HTML and XML by their own rules (charsets.go), other
// text by its charset parameter (defaulting to UTF-8).
func decodeText(raw []byte, mediaType, charsetName, header string) string {
	switch {
	case mediaType == "text/html" || mediaType == "application/xhtml+xml":
		return decodeHTML(raw, header)
	case mediaType == "application/xml" || mediaType == "text/xml" || strings.HasSuffix(mediaType, "+xml"):
		return decodeXML(raw, header)
	}
	if charsetName != "" {
		if enc, _ := charset.Lookup(charsetName); enc != nil {
			if decoded, err := enc.NewDecoder().Bytes(raw); err == nil {
				return string(decoded)
			}
		}
	}
	return strings.ToValidUTF8(string(raw), "\uFFFD")
}

func isTextType(mediaType string) bool {
	switch {
	case strings.HasPrefix(mediaType, "text/"),
		mediaType == "application/xhtml+xml",
		mediaType == "application/xml",
		mediaType == "application/json",
		mediaType == "application/javascript",
		strings.HasSuffix(mediaType, "+xml"),
		strings.HasSuffix(mediaType, "+json"):
		return true
	}
	return false
}

// acceptsType matches a media type against patterns such as "text/html", "image/*" or "*/*".
func acceptsType(patterns []string, mediaType string) bool {
	for _, pattern := range patterns {
		switch {
		case pattern == "*/*":
			return true
		case strings.HasSuffix(pattern, "/*"):
			if mediaType != "" && strings.HasPrefix(mediaType, strings.TrimSuffix(pattern, "*")) {
				return true
			}
		case pattern == mediaType:
			return true
		}
	}
	return false
}

func isRedirect(status int) bool {
	switch status {
	case http.StatusMovedPermanently, http.StatusFound, http.StatusSeeOther,
		http.StatusTemporaryRedirect, http.StatusPermanentRedirect:
		return true
	}
	return false
}

// parseTargetURL parses the URL to fetch, resolved against base when one is given.
func parseTargetURL(raw, base string) (*url.URL, error) {
	raw = strings.TrimSpace(raw)
	if raw == "" {
		return nil, failf(codeInvalidURL, "the URL is empty")
	}
	if len(raw) > safeFetchMaxURLLength || len(base) > safeFetchMaxURLLength {
		return nil, failf(codeInvalidURL, "the URL is longer than %d characters", safeFetchMaxURLLength)
	}

	target, err := url.Parse(raw)
	if err != nil {
		return nil, failf(codeInvalidURL, "the URL cannot be parsed")
	}
	if base != "" {
		baseURL, err := url.Parse(strings.TrimSpace(base))
		if err != nil {
			return nil, failf(codeInvalidURL, "the base URL cannot be parsed")
		}
		target = baseURL.ResolveReference(target)
	}
	target.Scheme = strings.ToLower(target.Scheme)
	target.Fragment, target.RawFragment = "", ""
	return target, nil
}

// classifyError turns a client error into a fetchError with a code.
func classifyError(ctx context.Context, err error) *fetchError {
	var fe *fetchError
	if errors.As(err, &fe) {
		return fe
	}
	if errors.Is(ctx.Err(), context.DeadlineExceeded) || errors.Is(err, context.DeadlineExceeded) {
		return failf(codeTimeout, "the server did not answer in time")
	}
	var netErr net.Error
	if errors.As(err, &netErr) && netErr.Timeout() {
		return failf(codeTimeout, "the server did not answer in time")
	}
	var urlErr *url.Error
	if errors.As(err, &urlErr) {
		err = urlErr.Err
	}
	return failf(codeUnreachable, "the request failed: %v", err)
}

// ---------------------------------------------------------------------------------------------
// JS binding

// bindSafeFetch sets the global $safeFetch in a JS runtime.
func bindSafeFetch(vm *goja.Runtime, f *safeFetcher) {
	vm.Set("$safeFetch", func(call goja.FunctionCall) goja.Value {
		opts, err := readFetchOptions(call.Argument(0))
		if err != nil {
			panic(jsFetchError(vm, err))
		}
		res, err := f.fetch(context.Background(), opts)
		if err != nil {
			panic(jsFetchError(vm, err))
		}

		headers := vm.NewObject()
		for name, value := range res.headers {
			_ = headers.Set(name, value)
		}
		obj := vm.NewObject()
		_ = obj.Set("status", res.status)
		_ = obj.Set("headers", headers)
		_ = obj.Set("contentType", res.contentType)
		if res.bodyEncoding == "bytes" {
			_ = obj.Set("body", vm.NewArrayBuffer(res.rawBody))
		} else {
			_ = obj.Set("body", res.body)
		}
		_ = obj.Set("bodyEncoding", res.bodyEncoding)
		_ = obj.Set("sniffedType", res.sniffedType)
		_ = obj.Set("size", res.size)
		_ = obj.Set("truncated", res.truncated)
		_ = obj.Set("finalUrl", res.finalURL)
		_ = obj.Set("redirects", res.redirects)
		return obj
	})
}

func jsFetchError(vm *goja.Runtime, err error) *goja.Object {
	code := codeUnreachable
	var fe *fetchError
	if errors.As(err, &fe) {
		code = fe.code
	}
	obj := vm.NewGoError(fmt.Errorf("$safeFetch: %s: %w", code, err))
	_ = obj.Set("code", code)
	return obj
}

// readFetchOptions reads {url, base, maxBytes, timeoutSec, accept, raw} (or just a URL string).
func readFetchOptions(arg goja.Value) (fetchOptions, error) {
	opts := fetchOptions{maxBytes: safeFetchDefaultMaxBytes, timeout: safeFetchDefaultTimeout}
	if arg == nil || goja.IsUndefined(arg) || goja.IsNull(arg) {
		return opts, failf(codeInvalidURL, "expected {url} or a URL string")
	}

	var params map[string]any
	switch v := arg.Export().(type) {
	case string:
		params = map[string]any{"url": v}
	case map[string]any:
		params = v
	default:
		return opts, failf(codeInvalidURL, "expected {url} or a URL string")
	}

	rawURL, ok := params["url"].(string)
	if !ok {
		return opts, failf(codeInvalidURL, "url must be a string")
	}
	opts.url = rawURL

	if v, present := params["base"]; present && v != nil {
		base, ok := v.(string)
		if !ok {
			return opts, failf(codeInvalidURL, "base must be a string")
		}
		opts.base = base
	}

	if v, present := params["maxBytes"]; present && v != nil {
		n, ok := toNumber(v)
		if !ok || n < 1 || n > safeFetchMaxMaxBytes {
			return opts, failf(codeInvalidURL, "maxBytes must be between 1 and %d", safeFetchMaxMaxBytes)
		}
		opts.maxBytes = int64(n)
	}

	if v, present := params["timeoutSec"]; present && v != nil {
		n, ok := toNumber(v)
		if !ok || n <= 0 {
			return opts, failf(codeInvalidURL, "timeoutSec must be a positive number")
		}
		opts.timeout = min(time.Duration(n*float64(time.Second)), safeFetchMaxTimeout)
	}

	if v, present := params["raw"]; present && v != nil {
		raw, ok := v.(bool)
		if !ok {
			return opts, failf(codeInvalidURL, "raw must be true or false")
		}
		opts.raw = raw
	}

	if v, present := params["accept"]; present && v != nil {
		var list []any
		switch a := v.(type) {
		case string:
			for _, item := range strings.Split(a, ",") {
				list = append(list, item)
			}
		case []any:
			list = a
		default:
			return opts, failf(codeInvalidURL, "accept must be a string or a list of media types")
		}
		for _, item := range list {
			s, ok := item.(string)
			if !ok {
				return opts, failf(codeInvalidURL, "accept must be a string or a list of media types")
			}
			s = strings.ToLower(strings.TrimSpace(s))
			if s != "" {
				opts.accept = append(opts.accept, s)
			}
		}
	}
	return opts, nil
}

func toNumber(v any) (float64, bool) {
	switch n := v.(type) {
	case int64:
		return float64(n), true
	case float64:
		return n, !math.IsNaN(n) && !math.IsInf(n, 0)
	case int:
		return float64(n), true
	}
	return 0, false
}

// registerSafeFetch builds the shared fetcher from the environment and returns the jsvm OnInit
// function that exposes it; a malformed LINK_PREVIEW_ALLOW_HOSTS stops the start.
func registerSafeFetch() func(vm *goja.Runtime) {
	fetcher, err := newSafeFetcher(os.Getenv("LINK_PREVIEW_ALLOW_HOSTS"))
	if err != nil {
		log.Fatal(err)
	}
	if len(fetcher.allow) > 0 {
		hosts := make([]string, 0, len(fetcher.allow))
		for _, entry := range fetcher.allow {
			if entry.port != "" {
				hosts = append(hosts, net.JoinHostPort(entry.host, entry.port))
			} else {
				hosts = append(hosts, entry.host)
			}
		}
		log.Printf("link previews: fetch guard bypassed for %s (LINK_PREVIEW_ALLOW_HOSTS)", strings.Join(hosts, ", "))
	}
	return func(vm *goja.Runtime) { bindSafeFetch(vm, fetcher) }
}

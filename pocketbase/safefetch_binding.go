// The JS binding of the safe fetch: $safeFetch in the hooks (safefetch.go).
package main

import (
	"context"
	"errors"
	"fmt"
	"log"
	"math"
	"net"
	"os"
	"strings"
	"time"

	"github.com/dop251/goja"
)

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

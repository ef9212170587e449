// Reading a safe fetch's answer: size and time limits, types, charsets, redirects, errors (safefetch.go).
package main

import (
	"context"
	"encoding/base64"
	"errors"
	"io"
	"mime"
	"net"
	"net/http"
	"net/url"
	"strings"

	"golang.org/x/net/html/charset"
)

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

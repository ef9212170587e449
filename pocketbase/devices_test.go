package main

import (
	"net/http"
	"strings"
	"testing"
)

func TestSessionAgentKeepsOnlyASummary(t *testing.T) {
	for header, want := range map[string]string{
		"Chrome on Linux": "Chrome on Linux",
		"Safari on iOS":   "Safari on iOS",
		"Browser":         "Browser",
		"":                unknownAgent,
		" Chrome":         unknownAgent,
		"Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36": unknownAgent,
		"<script>":              unknownAgent,
		"Chrome\non Linux":      unknownAgent,
		strings.Repeat("a", 49): unknownAgent,
		strings.Repeat("a", 48): strings.Repeat("a", 48),
	} {
		r, _ := http.NewRequest(http.MethodPost, "/", nil)
		r.Header[http.CanonicalHeaderKey(sessionAgentHeader)] = []string{header}
		if got := sessionAgent(r); got != want {
			t.Errorf("%q: got %q, want %q", header, got, want)
		}
	}
}

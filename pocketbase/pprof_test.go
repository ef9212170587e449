package main

import "testing"

func TestPprofAddressOnlyLoopback(t *testing.T) {
	for value, want := range map[string]string{
		"127.0.0.1:6060": "127.0.0.1:6060",
		"127.0.0.5:6060": "127.0.0.5:6060",
		"[::1]:6060":     "[::1]:6060",
	} {
		got, err := pprofAddress(value)
		if err != nil || got != want {
			t.Errorf("pprofAddress(%q) = %q, %v; want %q", value, got, err, want)
		}
	}
	for _, value := range []string{"0.0.0.0:6060", ":6060", "[::]:6060", "localhost:6060", "10.0.0.1:6060", "example.com:6060", "127.0.0.1", "6060", ""} {
		if got, err := pprofAddress(value); err == nil {
			t.Errorf("pprofAddress(%q) = %q, want an error", value, got)
		}
	}
}

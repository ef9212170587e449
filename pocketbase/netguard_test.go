package main

import (
	"net/netip"
	"testing"
)

func TestBlockedReason(t *testing.T) {
	blocked := []string{
		"0.0.0.0", "0.1.2.3", "10.0.0.1", "10.255.255.255", "100.64.0.1", "100.127.255.254",
		"127.0.0.1", "127.0.0.2", "127.255.255.255", "169.254.169.254", "169.254.0.1",
		"172.16.0.1", "172.31.255.255", "192.0.0.1", "192.0.2.1", "192.168.1.1", "198.18.0.1",
		"198.19.255.255", "198.51.100.7", "203.0.113.9", "224.0.0.1", "239.255.255.250",
		"240.0.0.1", "255.255.255.255",
		"::", "::1", "::127.0.0.1", "::ffff:127.0.0.1", "::ffff:10.0.0.1", "::ffff:169.254.169.254",
		"::ffff:0.0.0.0", "64:ff9b::7f00:1", "64:ff9b::a00:1", "2002:7f00:1::1", "2002:a9fe:a9fe::",
		"fc00::1", "fd12:3456::1", "fe80::1", "febf::1", "fec0::1", "ff02::1", "ff05::2",
		"2001:db8::1", "2001::1", "100::1",
	}
	for _, text := range blocked {
		if reason := blockedReason(netip.MustParseAddr(text)); reason == "" {
			t.Errorf("%s: expected to be blocked", text)
		}
	}

	public := []string{
		"1.1.1.1", "8.8.8.8", "93.184.215.14", "100.63.255.255", "100.128.0.1", "172.15.255.255",
		"172.32.0.1", "192.0.1.1", "192.169.0.1", "198.17.255.255", "198.20.0.1", "223.255.255.255",
		"2606:4700:4700::1111", "2a00:1450:4001:81c::200e", "::ffff:8.8.8.8", "64:ff9b::808:808",
		"2002:808:808::1",
	}
	for _, text := range public {
		if reason := blockedReason(netip.MustParseAddr(text)); reason != "" {
			t.Errorf("%s: expected to be public, got %q", text, reason)
		}
	}

	if reason := blockedReason(netip.MustParseAddr("fe80::1%eth0")); reason == "" {
		t.Error("scoped address must be blocked")
	}
	if reason := blockedReason(netip.Addr{}); reason == "" {
		t.Error("invalid address must be blocked")
	}
}

func TestParseFetchHostNumericForms(t *testing.T) {
	cases := map[string]string{
		"2130706433":       "127.0.0.1",
		"0x7f000001":       "127.0.0.1",
		"0X7F000001":       "127.0.0.1",
		"017700000001":     "127.0.0.1",
		"127.1":            "127.0.0.1",
		"127.0.1":          "127.0.0.1",
		"0177.0.0.1":       "127.0.0.1",
		"0x7f.1":           "127.0.0.1",
		"127.0.0.1.":       "127.0.0.1",
		"0":                "0.0.0.0",
		"169.254.43518":    "169.254.169.254",
		"0xa9fea9fe":       "169.254.169.254",
		"::ffff:127.0.0.1": "::ffff:127.0.0.1",
		"[::1]":            "::1",
		"１２７．０．０．１":        "127.0.0.1",
	}
	for input, want := range cases {
		host, err := parseFetchHost(input)
		if err != nil {
			t.Errorf("%s: %v", input, err)
			continue
		}
		if !host.isIP() || host.name != want {
			t.Errorf("%s: got %+v, want IP %s", input, host, want)
		}
	}

	invalid := []string{"", "256.0.0.1", "1.2.3.4.5", "0x100000000", "4294967296", "1.2.3.256", "09.1.1.1",
		"exa mple.com", "a..b", "[::1", "::zz"}
	for _, input := range invalid {
		if host, err := parseFetchHost(input); err == nil {
			t.Errorf("%q: expected an error, got %+v", input, host)
		}
	}

	names := map[string]string{"Example.COM.": "example.com", "a-b_c.example": "a-b_c.example", "localhost": "localhost"}
	for input, want := range names {
		host, err := parseFetchHost(input)
		if err != nil || host.isIP() || host.name != want {
			t.Errorf("%s: got %+v, %v; want name %s", input, host, err, want)
		}
	}
}

func TestLoopbackNames(t *testing.T) {
	for _, name := range []string{"localhost", "ip6-localhost", "ip6-loopback", "a.b.localhost"} {
		if !isLoopbackName(name) {
			t.Errorf("%s: expected a loopback name", name)
		}
	}
	for _, name := range []string{"localhost.example.com", "example.com", "mylocalhost"} {
		if isLoopbackName(name) {
			t.Errorf("%s: not a loopback name", name)
		}
	}
}

func TestAllowlist(t *testing.T) {
	entries, err := parseAllowlist(" 127.0.0.1:4567, Example.test ,[::1]:8080, [::1],,")
	if err != nil {
		t.Fatal(err)
	}
	want := []allowlistEntry{{"127.0.0.1", "4567"}, {"example.test", ""}, {"::1", "8080"}, {"::1", ""}}
	if len(entries) != len(want) {
		t.Fatalf("got %+v", entries)
	}
	for i := range want {
		if entries[i] != want[i] {
			t.Errorf("entry %d: got %+v, want %+v", i, entries[i], want[i])
		}
	}

	host := func(s string) fetchHost {
		h, err := parseFetchHost(s)
		if err != nil {
			t.Fatal(err)
		}
		return h
	}
	only, _ := parseAllowlist("127.0.0.1:4567")
	if !allows(only, host("127.0.0.1"), "4567") || !allows(only, host("2130706433"), "4567") {
		t.Error("the allowlisted address and port must be allowed")
	}
	if allows(only, host("127.0.0.1"), "4568") || allows(only, host("localhost"), "4567") ||
		allows(only, host("127.0.0.2"), "4567") {
		t.Error("only the allowlisted address and port may be allowed")
	}

	for _, bad := range []string{"127.0.0.1:0", "127.0.0.1:abc", "*", "exa mple", "[::1]:99999", "http://x"} {
		if _, err := parseAllowlist(bad); err == nil {
			t.Errorf("%q: expected an error", bad)
		}
	}
	if entries, err := parseAllowlist(""); err != nil || len(entries) != 0 {
		t.Errorf("empty allowlist: %+v, %v", entries, err)
	}
}

package main

// How the guard of outgoing fetches (netguard.go) reads a host: URL and dial hosts in canonical form,
// including the numeric IPv4 notations browsers accept, and the names that always mean this machine.

import (
	"fmt"
	"net/netip"
	"strconv"
	"strings"

	"golang.org/x/net/idna"
)

// fetchHost is a URL or dial host in canonical form: IP literals (including the numeric IPv4
// notations browsers accept, such as 2130706433, 0x7f000001 or 127.1) become the address, names
// become lowercase ASCII without a trailing dot.
type fetchHost struct {
	name string     // canonical text: the address for IP literals
	ip   netip.Addr // valid for IP literals
}

func (h fetchHost) isIP() bool { return h.ip.IsValid() }

// parseFetchHost canonicalizes the host of a URL (brackets already removed) or of a dial address.
func parseFetchHost(host string) (fetchHost, error) {
	if host == "" {
		return fetchHost{}, fmt.Errorf("the URL has no host")
	}
	if strings.HasPrefix(host, "[") && strings.HasSuffix(host, "]") {
		host = host[1 : len(host)-1]
	}

	if strings.Contains(host, ":") {
		addr, err := netip.ParseAddr(host)
		if err != nil {
			return fetchHost{}, fmt.Errorf("invalid IPv6 address %q", host)
		}
		return fetchHost{name: addr.String(), ip: addr}, nil
	}

	// Internationalized names are converted the way net/http converts them before dialing.
	ascii := host
	if !isASCII(host) {
		var err error
		if ascii, err = idna.Lookup.ToASCII(host); err != nil || ascii == "" {
			return fetchHost{}, fmt.Errorf("invalid host name %q", host)
		}
	}
	ascii = strings.ToLower(ascii)

	if endsInNumber(ascii) {
		addr, err := parseWebIPv4(ascii)
		if err != nil {
			return fetchHost{}, fmt.Errorf("invalid IPv4 address %q", host)
		}
		return fetchHost{name: addr.String(), ip: addr}, nil
	}

	name := strings.TrimSuffix(ascii, ".")
	if name == "" || len(name) > 253 {
		return fetchHost{}, fmt.Errorf("invalid host name %q", host)
	}
	for _, label := range strings.Split(name, ".") {
		if label == "" || len(label) > 63 {
			return fetchHost{}, fmt.Errorf("invalid host name %q", host)
		}
		for _, c := range label {
			if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-' || c == '_') {
				return fetchHost{}, fmt.Errorf("invalid host name %q", host)
			}
		}
	}
	return fetchHost{name: name}, nil
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}

// isLoopbackName reports names that always mean this machine: "localhost" and its subdomains
// (RFC 6761) and the usual hosts-file aliases of ::1. They are refused without a DNS query.
func isLoopbackName(name string) bool {
	switch name {
	case "localhost", "ip6-localhost", "ip6-loopback", "localhost.localdomain":
		return true
	}
	return strings.HasSuffix(name, ".localhost")
}

// endsInNumber reports whether a host's last label is numeric, in which case browsers parse the
// whole host as an IPv4 address (WHATWG URL standard, "ends in a number checker").
func endsInNumber(host string) bool {
	labels := strings.Split(host, ".")
	if labels[len(labels)-1] == "" {
		if len(labels) == 1 {
			return false
		}
		labels = labels[:len(labels)-1]
	}
	last := labels[len(labels)-1]
	if last != "" && strings.Trim(last, "0123456789") == "" {
		return true
	}
	if strings.HasPrefix(last, "0x") && strings.Trim(last[2:], "0123456789abcdef") == "" {
		return true
	}
	return false
}

// parseWebIPv4 parses a host in the IPv4 notations of the WHATWG URL standard: one to four
// dot-separated parts, each decimal, octal (leading 0) or hexadecimal (0x); the last part fills
// the remaining bytes. So 2130706433, 0x7f000001, 017700000001 and 127.1 all mean 127.0.0.1.
func parseWebIPv4(host string) (netip.Addr, error) {
	parts := strings.Split(host, ".")
	if parts[len(parts)-1] == "" && len(parts) > 1 {
		parts = parts[:len(parts)-1]
	}
	if len(parts) > 4 {
		return netip.Addr{}, fmt.Errorf("too many parts")
	}

	numbers := make([]uint64, len(parts))
	for i, part := range parts {
		n, err := parseWebIPv4Number(part)
		if err != nil {
			return netip.Addr{}, err
		}
		numbers[i] = n
	}

	for _, n := range numbers[:len(numbers)-1] {
		if n > 255 {
			return netip.Addr{}, fmt.Errorf("part out of range")
		}
	}
	last := numbers[len(numbers)-1]
	if last >= uint64(1)<<(8*(5-len(numbers))) {
		return netip.Addr{}, fmt.Errorf("last part out of range")
	}

	value := last
	for i, n := range numbers[:len(numbers)-1] {
		value += n << (8 * (3 - i))
	}
	return netip.AddrFrom4([4]byte{byte(value >> 24), byte(value >> 16), byte(value >> 8), byte(value)}), nil
}

func parseWebIPv4Number(part string) (uint64, error) {
	if part == "" {
		return 0, fmt.Errorf("empty part")
	}
	base := 10
	switch {
	case len(part) >= 2 && (part[:2] == "0x" || part[:2] == "0X"):
		part, base = part[2:], 16
	case len(part) >= 2 && part[0] == '0':
		part, base = part[1:], 8
	}
	if part == "" {
		return 0, nil
	}
	n, err := strconv.ParseUint(part, base, 64)
	if err != nil {
		return 0, fmt.Errorf("invalid number %q", part)
	}
	return n, nil
}

package main

// The address policy of outgoing fetches (link previews): which hosts and IP addresses a fetch
// may connect to. Only public unicast addresses are allowed, unless the operator allowlists a
// host in LINK_PREVIEW_ALLOW_HOSTS (used by the tests to reach pages served on loopback).
// Hosts are read in canonical form first (fetchhost.go).

import (
	"fmt"
	"net"
	"net/netip"
	"strconv"
	"strings"
)

// blockedRange is a range of addresses that outgoing fetches must never connect to.
type blockedRange struct {
	prefix netip.Prefix
	kind   string
}

func mustRanges(list [][2]string) []blockedRange {
	out := make([]blockedRange, 0, len(list))
	for _, item := range list {
		out = append(out, blockedRange{prefix: netip.MustParsePrefix(item[0]), kind: item[1]})
	}
	return out
}

// Special-purpose ranges (IANA IPv4 and IPv6 special-purpose address registries) that are not
// reachable public hosts. The more specific ranges come first so that the reason names them.
var blockedIPv4 = mustRanges([][2]string{
	{"255.255.255.255/32", "a broadcast address"},
	{"0.0.0.0/32", "an unspecified address"},
	{"0.0.0.0/8", "a 'this network' address"},
	{"10.0.0.0/8", "a private address"},
	{"100.64.0.0/10", "a shared (CGNAT) address"},
	{"127.0.0.0/8", "a loopback address"},
	{"169.254.0.0/16", "a link-local address"},
	{"172.16.0.0/12", "a private address"},
	{"192.0.0.0/24", "an IETF protocol assignment address"},
	{"192.0.2.0/24", "a documentation address"},
	{"192.88.99.0/24", "a 6to4 relay address"},
	{"192.168.0.0/16", "a private address"},
	{"198.18.0.0/15", "a benchmarking address"},
	{"198.51.100.0/24", "a documentation address"},
	{"203.0.113.0/24", "a documentation address"},
	{"224.0.0.0/4", "a multicast address"},
	{"240.0.0.0/4", "a reserved address"},
})

var blockedIPv6 = mustRanges([][2]string{
	{"::/128", "an unspecified address"},
	{"::1/128", "a loopback address"},
	{"::/96", "an IPv4-compatible address"},
	{"::ffff:0:0:0/96", "an IPv4-translated address"},
	{"64:ff9b:1::/48", "a local-use NAT64 address"},
	{"100::/64", "a discard-only address"},
	{"2001:db8::/32", "a documentation address"},
	{"2001::/23", "an IETF protocol assignment address"},
	{"3fff::/20", "a documentation address"},
	{"5f00::/16", "a segment routing address"},
	{"fc00::/7", "a unique local (private) address"},
	{"fe80::/10", "a link-local address"},
	{"fec0::/10", "a site-local address"},
	{"ff00::/8", "a multicast address"},
})

var (
	ipv4Mapped = netip.MustParsePrefix("::ffff:0:0/96")
	nat64      = netip.MustParsePrefix("64:ff9b::/96")
	sixToFour  = netip.MustParsePrefix("2002::/16")
)

// blockedReason says why a fetch may not connect to addr ("a loopback address", ...), or ""
// when addr is a public unicast address.
func blockedReason(addr netip.Addr) string {
	if !addr.IsValid() {
		return "not a valid IP address"
	}
	if addr.Zone() != "" {
		return "a scoped address"
	}

	if addr.Is4In6() || ipv4Mapped.Contains(addr) {
		if reason := blockedReason(addr.Unmap()); reason != "" {
			return "the IPv4-mapped form of " + reason
		}
		return ""
	}

	// IPv6 ranges that carry an IPv4 address: judge the embedded address as well.
	if addr.Is6() {
		raw := addr.As16()
		var embedded netip.Addr
		switch {
		case nat64.Contains(addr):
			embedded = netip.AddrFrom4([4]byte{raw[12], raw[13], raw[14], raw[15]})
		case sixToFour.Contains(addr):
			embedded = netip.AddrFrom4([4]byte{raw[2], raw[3], raw[4], raw[5]})
		}
		if embedded.IsValid() {
			if reason := blockedReason(embedded); reason != "" {
				return "an IPv6 address embedding " + reason
			}
		}
	}

	ranges := blockedIPv6
	if addr.Is4() {
		ranges = blockedIPv4
	}
	for _, r := range ranges {
		if r.prefix.Contains(addr) {
			return r.kind
		}
	}

	// Backstop: whatever the lists above miss, only global unicast addresses pass.
	switch {
	case addr.IsLoopback():
		return "a loopback address"
	case addr.IsPrivate():
		return "a private address"
	case addr.IsLinkLocalUnicast(), addr.IsLinkLocalMulticast():
		return "a link-local address"
	case addr.IsMulticast(), addr.IsInterfaceLocalMulticast():
		return "a multicast address"
	case addr.IsUnspecified():
		return "an unspecified address"
	case !addr.IsGlobalUnicast():
		return "not a global unicast address"
	}
	return ""
}

// allowlistEntry is one host or host:port of LINK_PREVIEW_ALLOW_HOSTS; port "" allows any port.
type allowlistEntry struct {
	host string
	port string
}

// parseAllowlist reads LINK_PREVIEW_ALLOW_HOSTS: comma-separated "host", "host:port",
// "[ipv6]" or "[ipv6]:port" entries. A malformed entry is an error, so that a typo cannot
// silently change what the guard lets through.
func parseAllowlist(value string) ([]allowlistEntry, error) {
	var entries []allowlistEntry
	for _, raw := range strings.Split(value, ",") {
		item := strings.TrimSpace(raw)
		if item == "" {
			continue
		}

		hostPart, port := item, ""
		if strings.HasPrefix(item, "[") {
			if end := strings.Index(item, "]"); end >= 0 && end+1 < len(item) {
				var err error
				if hostPart, port, err = net.SplitHostPort(item); err != nil {
					return nil, fmt.Errorf("LINK_PREVIEW_ALLOW_HOSTS: invalid entry %q", item)
				}
			}
		} else if strings.Count(item, ":") == 1 {
			var err error
			if hostPart, port, err = net.SplitHostPort(item); err != nil {
				return nil, fmt.Errorf("LINK_PREVIEW_ALLOW_HOSTS: invalid entry %q", item)
			}
		}

		if port != "" {
			n, err := strconv.Atoi(port)
			if err != nil || n < 1 || n > 65535 {
				return nil, fmt.Errorf("LINK_PREVIEW_ALLOW_HOSTS: invalid port in %q", item)
			}
			port = strconv.Itoa(n)
		}

		host, err := parseFetchHost(hostPart)
		if err != nil {
			return nil, fmt.Errorf("LINK_PREVIEW_ALLOW_HOSTS: invalid entry %q: %v", item, err)
		}
		entries = append(entries, allowlistEntry{host: host.name, port: port})
	}
	return entries, nil
}

// allows reports whether a canonical host and port are allowlisted.
func allows(entries []allowlistEntry, host fetchHost, port string) bool {
	for _, entry := range entries {
		if entry.host == host.name && (entry.port == "" || entry.port == port) {
			return true
		}
	}
	return false
}

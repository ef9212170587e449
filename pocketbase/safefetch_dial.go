// The safe fetch's dialer: every connection goes to a checked public address (safefetch.go).
package main

import (
	"context"
	"errors"
	"net"
	"net/netip"
	"strconv"
	"syscall"
)

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

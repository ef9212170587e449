import { isIPv4, isIPv6 } from "node:net";
import { proxyProof } from "./proxy.server";

/**
 * The address PocketBase's rate limiter counts a browser under: its IPv4 address, or for IPv6 the
 * /64 network it is in (written as "2001:db8:1:2::"). One IPv6 subscriber usually holds a whole /64,
 * so counting single IPv6 addresses would give one person billions of separate budgets.
 * IPv4-mapped IPv6 addresses ("::ffff:192.0.2.1", as Node reports IPv4 clients of a dual-stack
 * socket) count as the IPv4 address. Anything else is returned unchanged.
 */
export function rateLimitAddress(ip: string): string {
  const address = ip.trim().replace(/%.*$/, ""); // no zone index ("fe80::1%eth0")
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped && isIPv4(mapped[1])) return mapped[1];
  if (!isIPv6(address)) return ip;
  return `${ipv6Groups(address)
    .slice(0, 4)
    .map((group) => group.toString(16))
    .join(":")}::`;
}

/** The eight 16-bit groups of a valid IPv6 address ("::" expanded, a trailing dotted IPv4 part as two groups). */
function ipv6Groups(address: string): number[] {
  const toGroups = (part: string) =>
    part === ""
      ? []
      : part.split(":").flatMap((piece) => {
          if (!piece.includes(".")) return [parseInt(piece, 16)];
          const [a, b, c, d] = piece.split(".").map(Number);
          return [(a << 8) | b, (c << 8) | d];
        });
  const [head, tail] = address.split("::");
  const first = toGroups(head);
  if (tail === undefined) return first;
  const last = toGroups(tail);
  return [...first, ...new Array<number>(8 - first.length - last.length).fill(0), ...last];
}

/**
 * The headers that tell PocketBase who is asking, for every request made on a browser's behalf
 * (API calls, file downloads, live streams): without them every browser would share the web server's
 * own rate limits. The address only when known; always the proof of the shared secret, without which
 * PocketBase ignores the address and the device (pocketbase/proxy_secret.go).
 */
export function forwardedFor(clientIp: string | undefined): Record<string, string> {
  return { ...proxyProof(), ...(clientIp ? { "X-Forwarded-For": rateLimitAddress(clientIp) } : {}) };
}

import { describe, expect, it } from "vitest";
import { forwardedFor, rateLimitAddress } from "~/server/client-address.server";

describe("rateLimitAddress", () => {
  it.each([
    ["203.0.113.9", "203.0.113.9"],
    ["::ffff:203.0.113.9", "203.0.113.9"],
    ["::FFFF:127.0.0.1", "127.0.0.1"],
    ["2001:db8:1:2::a", "2001:db8:1:2::"],
    ["2001:db8:1:2:ffff:ffff:ffff:ffff", "2001:db8:1:2::"],
    ["2001:0DB8:0001:0002:0000:0000:0000:0001", "2001:db8:1:2::"],
    ["2001:db8::1", "2001:db8:0:0::"],
    ["::1", "0:0:0:0::"],
    ["::", "0:0:0:0::"],
    ["fe80::1%eth0", "fe80:0:0:0::"],
    ["2001:db8:1:2:3:4:192.0.2.1", "2001:db8:1:2::"],
    ["64:ff9b::192.0.2.1", "64:ff9b:0:0::"],
  ])("%s counts as %s", (ip, expected) => {
    expect(rateLimitAddress(ip)).toBe(expected);
  });

  it("puts two addresses of one /64 in one bucket and the next /64 in another", () => {
    expect(rateLimitAddress("2001:db8:aa:bb::1")).toBe(rateLimitAddress("2001:db8:aa:bb:1234:5678:9abc:def0"));
    expect(rateLimitAddress("2001:db8:aa:bb::1")).not.toBe(rateLimitAddress("2001:db8:aa:bc::1"));
  });

  it("leaves anything that is not an IP address as it is", () => {
    expect(rateLimitAddress("unknown")).toBe("unknown");
    expect(rateLimitAddress("")).toBe("");
  });
});

describe("forwardedFor", () => {
  it("sends the rate limit address, or nothing when the address is unknown", () => {
    expect(forwardedFor("2001:db8:1:2::a")).toEqual({ "X-Forwarded-For": "2001:db8:1:2::" });
    expect(forwardedFor("198.51.100.7")).toEqual({ "X-Forwarded-For": "198.51.100.7" });
    expect(forwardedFor(undefined)).toEqual({});
    expect(forwardedFor("")).toEqual({});
  });
});

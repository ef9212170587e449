import { describe, expect, it } from "vitest";
import { commitCsrfToken, csrfValid } from "../../app/server/csrf.server";
import { env } from "../../app/server/env.server";

// CSRF tokens (app/server/csrf.server.ts): "value.signature", signature = HMAC-SHA256(value) under the
// session secret, both base64url.
const cookieOf = (setCookie: string | null) => (setCookie ?? "").split(";")[0];

describe("CSRF tokens", () => {
  it("issues a signed token once and accepts it back with its cookie", async () => {
    const [token, setCookie] = await commitCsrfToken(new Request("http://x/"));
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}\.[A-Za-z0-9_-]{43}$/);
    expect(setCookie).toMatch(/^chatcrypt_csrf=.*HttpOnly/i);
    const cookie = cookieOf(setCookie);
    // the page keeps its token: no new cookie while the old one is good
    expect(await commitCsrfToken(new Request("http://x/", { headers: { Cookie: cookie } }))).toEqual([token, null]);
    expect(await csrfValid(cookie, token)).toBe(true);
  });

  it("refuses a missing, different or tampered token", async () => {
    const [token, setCookie] = await commitCsrfToken(new Request("http://x/"));
    const cookie = cookieOf(setCookie);
    const [other] = await commitCsrfToken(new Request("http://x/"));
    expect(await csrfValid(cookie, null)).toBe(false);
    expect(await csrfValid(cookie, "")).toBe(false);
    expect(await csrfValid(null, token)).toBe(false);
    expect(await csrfValid(cookie, other)).toBe(false);
    expect(await csrfValid(cookie, `${token}x`)).toBe(false);
  });

  it("refuses a cookie whose token is not signed with the session secret, and replaces it", async () => {
    const { csrfCookie } = await import("../../app/server/session.server");
    const forged = `${"a".repeat(43)}.${"b".repeat(43)}`;
    const cookie = cookieOf(await csrfCookie.serialize(forged));
    expect(await csrfValid(cookie, forged)).toBe(false);
    const [fresh, setCookie] = await commitCsrfToken(new Request("http://x/", { headers: { Cookie: cookie } }));
    expect(fresh).not.toBe(forged);
    expect(setCookie).not.toBeNull();
  });

  it("keeps the format pages issued before node:crypto did the HMAC (crypto-js HmacSHA256, base64url)", async () => {
    const { csrfCookie } = await import("../../app/server/session.server");
    // Computed with crypto-js 4.2 (remix-utils' CSRF): HmacSHA256(value, secret).toString(enc.Base64url)
    expect(env().sessionSecret).toBe("development-only-session-secret-change-me");
    const old = "K7qJ0bVw3Ue9mY2sXrTzA1cD4fG6hJ8kL0nP2qR5tUw.K8tLB87EIxEOpMLKKEkOR5nnLYherQhiiNdbaw6wjoA";
    const cookie = cookieOf(await csrfCookie.serialize(old));
    expect(await csrfValid(cookie, old)).toBe(true);
  });
});

import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { env } from "./env.server";
import { csrfCookie } from "./session.server";

/**
 * CSRF tokens: 32 random bytes and their HMAC-SHA256 under the session secret, both base64url
 * ("token.signature", the format the app has always used, so pages already open keep working). The
 * token lives in a signed HttpOnly cookie and in the page; every state-changing request must send it
 * back in X-CSRF-Token. Computed with node:crypto.
 */
const sign = (value: string) => createHmac("sha256", env().sessionSecret).update(value).digest("base64url");

const same = (a: string, b: string) => {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
};

function wellSigned(token: string): boolean {
  const parts = token.split(".");
  return parts.length === 2 && parts[0] !== "" && same(parts[1], sign(parts[0]));
}

/** The page's token: the one in the request's cookie, or a new one with the Set-Cookie to store it. */
export async function commitCsrfToken(request: Request): Promise<[string, string | null]> {
  const existing: unknown = await csrfCookie.parse(request.headers.get("Cookie"));
  if (typeof existing === "string" && wellSigned(existing)) return [existing, null];
  const value = randomBytes(32).toString("base64url");
  const token = `${value}.${sign(value)}`;
  return [token, await csrfCookie.serialize(token)];
}

/** Whether the token sent with a request matches its cookie's, and that one is ours. */
export async function csrfValid(cookieHeader: string | null | undefined, sent: string | null | undefined): Promise<boolean> {
  if (!sent) return false;
  const cookie: unknown = await csrfCookie.parse(cookieHeader ?? null);
  return typeof cookie === "string" && wellSigned(cookie) && same(cookie, sent);
}

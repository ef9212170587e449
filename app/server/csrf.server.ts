import { createHash, createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { setBounded } from "~/lib/bounded-map";
import { env } from "~/server/env.server";
import { csrfCookie, parseCsrfCookie, readSession } from "~/server/session.server";
import type { RequestLike } from "~/server/request-like.server";

/**
 * CSRF tokens bound to the session they were issued for. The signed HttpOnly cookie holds a random
 * nonce (double submit: a cross-site page can neither read it nor the token); the token the page
 * sends in X-CSRF-Token is `nonce.mac`, where the MAC covers the nonce and the session's PocketBase
 * token. A token issued to an anonymous visit (or to another session) therefore fails once someone
 * is signed in, and every sign-in, sign-up and sign-out answers with a fresh token in the
 * X-CSRF-Token response header.
 */
const HEADER = "X-CSRF-Token";

function binding(sessionToken: string | undefined) {
  return sessionToken ? createHash("sha256").update(sessionToken).digest("base64url") : "anonymous";
}

/** MACs computed lately, by nonce and session token: a page sends the same token with every request. */
const recentMacs = new Map<string, string>();
const RECENT_MACS = 10_000;

function mac(nonce: string, sessionToken: string | undefined) {
  const key = `${nonce}|${sessionToken ?? ""}`;
  let value = recentMacs.get(key);
  if (value === undefined) {
    value = createHmac("sha256", env().sessionSecret)
      .update(`chatcrypt-csrf|${nonce}|${binding(sessionToken)}`)
      .digest("base64url");
    setBounded(recentMacs, key, value, RECENT_MACS);
  }
  return value;
}

async function cookieNonce(request: Pick<RequestLike, "headers">): Promise<string | null> {
  const value: unknown = await parseCsrfCookie(request.headers.get("Cookie"));
  return typeof value === "string" && value.length >= 16 && value.length <= 200 ? value : null;
}

/**
 * The token for the page (bound to `sessionToken`, by default the request's own session) and, when
 * the browser has no CSRF cookie yet, the Set-Cookie header that gives it one.
 */
export async function commitCsrf(request: Request, sessionToken?: string | null): Promise<[string, string | null]> {
  const bound = sessionToken === undefined ? (await readSession(request)).get("token") : (sessionToken ?? undefined);
  let nonce = await cookieNonce(request);
  let setCookie: string | null = null;
  if (!nonce) {
    nonce = randomBytes(24).toString("base64url");
    setCookie = await csrfCookie.serialize(nonce);
  }
  return [`${nonce}.${mac(nonce, bound)}`, setCookie];
}

/** True when the request's X-CSRF-Token matches its CSRF cookie and was issued for its session. */
export async function validCsrf(request: Pick<RequestLike, "headers">): Promise<boolean> {
  const token = request.headers.get(HEADER) ?? "";
  const dot = token.lastIndexOf(".");
  if (dot <= 0 || token.length > 400) return false;
  const nonce = await cookieNonce(request);
  if (!nonce || token.slice(0, dot) !== nonce) return false;
  const expected = Buffer.from(mac(nonce, (await readSession(request)).get("token")));
  const given = Buffer.from(token.slice(dot + 1));
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** Headers for an answer that changes the session: its cookie, and the CSRF token for the new session. */
export async function sessionChangeHeaders(request: Request, sessionCookie: string, sessionToken: string | null): Promise<Headers> {
  const headers = new Headers();
  headers.append("Set-Cookie", sessionCookie);
  const [token, csrfSetCookie] = await commitCsrf(request, sessionToken);
  if (csrfSetCookie) headers.append("Set-Cookie", csrfSetCookie);
  headers.set(HEADER, token);
  return headers;
}

import { createCookie, createCookieSessionStorage, createSession, type Cookie } from "@remix-run/node";
import { env } from "./env.server";
import { setBounded } from "~/lib/bounded-map";

// The PocketBase token lives only in this HttpOnly cookie; the browser never sees it.
const e = env();
const secure = e.COOKIE_SECURE ? e.COOKIE_SECURE === "true" : false;

const sessionCookie = createCookie("chatcrypt_session", {
  httpOnly: true,
  sameSite: "lax",
  path: "/",
  secure,
  secrets: [e.sessionSecret],
  maxAge: 60 * 60 * 24 * 7,
});

export const sessionStorage = createCookieSessionStorage<{ token: string; userId: string }>({ cookie: sessionCookie });

export const csrfCookie = createCookie("chatcrypt_csrf", {
  httpOnly: true,
  sameSite: "lax",
  path: "/",
  secure,
  secrets: [e.sessionSecret],
});

/**
 * A signed cookie's value, parsed (signature checked) once per distinct Cookie header: a page sends
 * the same header with every request, and each request reads it up to three times. The value depends
 * on nothing but the header, so the answer is the same; sign-out is checked apart (session-check).
 */
const PARSED_MAX = 5000;
function parsedOnce(cookie: Cookie) {
  const parsed = new Map<string, Promise<unknown>>();
  return (header: string | null): Promise<unknown> => {
    if (!header) return Promise.resolve(null);
    let value = parsed.get(header);
    if (!value) {
      value = cookie.parse(header);
      setBounded(parsed, header, value, PARSED_MAX);
      value.catch(() => parsed.delete(header));
    }
    return value;
  };
}
const parseSession = parsedOnce(sessionCookie);
export const parseCsrfCookie = parsedOnce(csrfCookie);

/** The session a Cookie header carries (as sessionStorage.getSession would read it). */
export async function sessionFromHeader(header: string | null | undefined) {
  const data = (await parseSession(header ?? null)) as { token: string; userId: string } | null;
  return createSession<{ token: string; userId: string }>(data ?? undefined);
}

export const readSession = (request: { headers: { get(name: string): string | null } }) => sessionFromHeader(request.headers.get("Cookie"));

/** The PocketBase token and user id of the request's session (undefined when signed out). */
export async function sessionUser(request: { headers: { get(name: string): string | null } }) {
  const session = await readSession(request);
  return { token: session.get("token"), userId: session.get("userId") };
}

export async function commitAuth(request: Request, token: string, userId: string) {
  const session = await readSession(request);
  session.set("token", token);
  session.set("userId", userId);
  return sessionStorage.commitSession(session);
}

export async function destroyAuth(request: Request) {
  return sessionStorage.destroySession(await readSession(request));
}

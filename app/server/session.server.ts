import { createCookie, createCookieSessionStorage } from "@remix-run/node";
import { env } from "./env.server";

// The PocketBase token lives only in this HttpOnly cookie; the browser never sees it.
const e = env();
const secure = e.COOKIE_SECURE ? e.COOKIE_SECURE === "true" : false;

export const sessionStorage = createCookieSessionStorage<{ token: string; userId: string }>({
  cookie: {
    name: "chatcrypt_session",
    httpOnly: true,
    sameSite: "lax",
    path: "/",
    secure,
    secrets: [e.sessionSecret],
    maxAge: 60 * 60 * 24 * 7,
  },
});

export const csrfCookie = createCookie("chatcrypt_csrf", {
  httpOnly: true,
  sameSite: "lax",
  path: "/",
  secure,
  secrets: [e.sessionSecret],
});

export async function readSession(request: { headers: { get(name: string): string | null } }) {
  return sessionStorage.getSession(request.headers.get("Cookie"));
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

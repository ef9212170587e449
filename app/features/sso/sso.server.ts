import { createCookie, type AppLoadContext } from "@remix-run/node";
import { env } from "~/server/env.server";
import { pbErrorMessage, pbStatus, pocketbase, pocketbaseFor } from "~/server/pocketbase.server";
import { commitAuth } from "~/server/session.server";
import { fail, jsonResponse } from "~/server/http.server";
import { commitCsrf } from "~/server/csrf.server";
import { loadSessionUser } from "~/features/auth/users.server";
import { rememberDevice } from "~/features/auth/device.server";
import { agentHeaders } from "~/features/devices/devices.server";
import type { SessionUser } from "~/lib/session-user";
import type { SsoConfig, SsoLinkOffer, SsoSignUpOffer } from "~/features/sso/types";

// Single sign-on's web side (docs/decisions/0063-single-sign-on.md): PocketBase does the protocol and
// the accounts (pb_hooks/sso.pb.js); here the state waits in an HttpOnly cookie between the provider's
// address and the callback, so the code is finished only in the browser that started the sign-in.

const e = env();
const stateCookie = createCookie("chatcrypt_sso", {
  httpOnly: true,
  sameSite: "lax",
  path: "/auth/sso",
  secure: e.COOKIE_SECURE === "true",
  secrets: [e.sessionSecret],
  maxAge: 10 * 60,
});

export const CALLBACK_PATH = "/auth/sso/callback";
const callbackUrl = (request: Request) => new URL(CALLBACK_PATH, env().APP_URL ?? request.url).toString();

/** What the sign-in screen shows (disabled when PocketBase cannot say). */
export async function ssoConfig(context: AppLoadContext): Promise<SsoConfig> {
  try {
    return await pocketbase(undefined, context).send<SsoConfig>("/api/chat/sso", { method: "GET" });
  } catch {
    return { enabled: false, name: "", required: false };
  }
}

/** The provider's address to send the browser to, and the cookie that keeps the state. */
export async function ssoBegin(request: Request, context: AppLoadContext): Promise<{ url: string; cookie: string }> {
  const { url, state } = await pocketbase(undefined, context).send<{ url: string; state: string }>("/api/chat/sso/begin", {
    method: "POST",
    body: { redirect_url: callbackUrl(request) },
  });
  return { url, cookie: await stateCookie.serialize(state) };
}

export type SsoOutcome =
  | { kind: "signedIn"; user: SessionUser; csrfToken: string }
  | { kind: "signup"; offer: SsoSignUpOffer; csrfToken: string }
  | { kind: "link"; offer: SsoLinkOffer; csrfToken: string }
  | { kind: "refused"; message: string; csrfToken: string }
  /** The set-up's own address reloaded signed out: the account was not made (SsoCallback). */
  | { kind: "interrupted"; csrfToken: string };

/** Finishes the sign-in the provider sent the browser back from: the outcome, and the cookies to set. */
export async function ssoFinish(request: Request, context: AppLoadContext): Promise<{ outcome: SsoOutcome; headers: Headers }> {
  const headers = new Headers({ "Cache-Control": "no-store" });
  headers.append("Set-Cookie", await stateCookie.serialize("", { maxAge: 0 }));
  const query = new URL(request.url).searchParams;
  const state = query.get("state") ?? "";
  const kept = (await stateCookie.parse(request.headers.get("Cookie"))) as string | null;
  const refused = async (message: string) => {
    const [csrfToken, csrfCookie] = await commitCsrf(request, null);
    if (csrfCookie) headers.append("Set-Cookie", csrfCookie);
    return { outcome: { kind: "refused", message, csrfToken } as const, headers };
  };
  if (query.get("error")) return refused(`The identity provider did not sign you in (${query.get("error")}).`);
  if (!state || state !== kept) return refused("This sign-in has expired or was started in another browser. Start again.");
  const pb = pocketbase(undefined, context);
  let answer: { token?: string; record?: { id: string }; signup?: SsoSignUpOffer; link?: SsoLinkOffer };
  try {
    answer = await pb.send("/api/chat/sso/finish", {
      method: "POST",
      body: { state, code: query.get("code") ?? "" },
      headers: agentHeaders(request),
    });
  } catch (error) {
    const status = pbStatus(error);
    return refused(
      status >= 400 && status < 500 ? (pbErrorMessage(error) ?? "Sign in failed") : "The chat server is not reachable right now.",
    );
  }
  if (answer.signup || answer.link) {
    const [csrfToken, csrfCookie] = await commitCsrf(request, null);
    if (csrfCookie) headers.append("Set-Cookie", csrfCookie);
    const outcome: SsoOutcome = answer.signup
      ? { kind: "signup", offer: answer.signup, csrfToken }
      : { kind: "link", offer: answer.link!, csrfToken };
    return { outcome, headers };
  }
  return signedIn(request, context, answer.token ?? "", answer.record?.id ?? "", headers);
}

/**
 * The set-up's own address (`/auth/sso/setup`), where the callback's address goes once its code is used:
 * a reload there finds the session the set-up made (its steps go on in the browser), or none.
 */
export async function ssoSetupAgain(request: Request, context: AppLoadContext): Promise<{ outcome: SsoOutcome; headers: Headers }> {
  const headers = new Headers({ "Cache-Control": "no-store" });
  const { pb, token, userId } = await pocketbaseFor(request, context);
  let user: SessionUser | null = null;
  if (token && userId) {
    try {
      user = await loadSessionUser(pb, userId);
    } catch {
      throw new Response("The chat server is not reachable right now.", { status: 503 });
    }
  }
  const [csrfToken, csrfCookie] = await commitCsrf(request, user ? token : null);
  if (csrfCookie) headers.append("Set-Cookie", csrfCookie);
  return { outcome: user ? { kind: "signedIn", user, csrfToken } : { kind: "interrupted", csrfToken }, headers };
}

/** The session of a token PocketBase gave: its cookies and the page's user. */
export async function signedIn(
  request: Request,
  context: AppLoadContext,
  token: string,
  userId: string,
  headers: Headers,
): Promise<{ outcome: SsoOutcome; headers: Headers }> {
  const user = await loadSessionUser(pocketbase(token, context), userId);
  if (!user) throw new Response("Sign in failed", { status: 502 });
  headers.append("Set-Cookie", await commitAuth(request, token, user.id));
  headers.append("Set-Cookie", await rememberDevice(request, user.email));
  const [csrfToken, csrfCookie] = await commitCsrf(request, token);
  if (csrfCookie) headers.append("Set-Cookie", csrfCookie);
  return { outcome: { kind: "signedIn", user, csrfToken }, headers };
}

/**
 * A first sign-in's account creation or a password account's linking (PocketBase's `route`, with
 * `body`): the session PocketBase answers becomes this browser's; the page gets its user.
 */
export async function sessionFrom(
  request: Request,
  context: AppLoadContext,
  route: string,
  body: Record<string, unknown>,
  failure: string,
) {
  let auth: { token: string; record: { id: string } };
  try {
    auth = await pocketbase(undefined, context).send(route, { method: "POST", headers: agentHeaders(request), body });
  } catch (error) {
    const status = pbStatus(error);
    fail(status >= 400 && status < 500 ? status : 502, pbErrorMessage(error) ?? failure);
  }
  const { outcome, headers } = await signedIn(request, context, auth.token, auth.record.id, new Headers());
  if (outcome.kind !== "signedIn") fail(502, failure);
  headers.set("X-CSRF-Token", outcome.csrfToken);
  return jsonResponse({ user: outcome.user }, 200, headers);
}

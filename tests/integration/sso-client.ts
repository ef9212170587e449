// Single sign-on as the page drives it against our PocketBase and the test identity provider
// (tools/oidc-provider/): begin, the provider's login form, finish; a first sign-in that creates the
// account; the audit log's entries about someone (tests/integration/sso*.test.ts).
import { expect } from "vitest";
import { signInAtProvider } from "../oidc-provider";
import { postJson, signupBody, superuserClient, type RunningPocketBase } from "./pocketbase";

export const SSO_CALLBACK = "http://127.0.0.1:3999/auth/sso/callback";
export const GONE = "This account was deactivated by the identity provider.";

export interface SsoAnswer {
  status: number;
  json: {
    token?: string;
    record?: { id: string };
    signup?: { ticket: string; email: string; username: string };
    link?: { ticket: string; email: string };
    message?: string;
  };
}

/** The sign-in steps against one PocketBase. */
export function ssoClient(pb: RunningPocketBase) {
  /** Begin, the provider's login form, finish: PocketBase's answer. */
  async function ssoSignIn(username: string, password = "correct horse"): Promise<SsoAnswer> {
    const begun = await postJson(pb.url, "/api/chat/sso/begin", { redirect_url: SSO_CALLBACK });
    expect(begun.status).toBe(200);
    const { url, state } = begun.json as { url: string; state: string };
    const { callback, error } = await signInAtProvider(url, username, password);
    if (!callback) throw new Error(`the provider refused: ${error}`);
    expect(callback.searchParams.get("state")).toBe(state);
    const finished = await postJson(pb.url, "/api/chat/sso/finish", { state, code: callback.searchParams.get("code") });
    return { status: finished.status, json: finished.json as SsoAnswer["json"] };
  }

  /** A first sign-in that creates the account; answers its id and session token. */
  async function ssoSignUp(username: string): Promise<{ id: string; token: string }> {
    const first = await ssoSignIn(username);
    expect(first.status).toBe(200);
    const keys = signupBody({ username: first.json.signup!.username });
    const created = await postJson(pb.url, "/api/chat/sso/signup", { ...keys, ticket: first.json.signup!.ticket });
    expect(created.status, created.text).toBe(200);
    return { id: keys.id, token: (created.json as { token: string }).token };
  }

  const auditActions = async (target: string) => {
    const su = await superuserClient(pb.url, pb.superuser);
    const rows = await su.collection("audit_log").getFullList({ filter: `target = "${target}"`, sort: "seq" });
    return rows.map((r) => ({ action: r.action as string, actor: r.actor as string, details: r.details as Record<string, unknown> }));
  };

  const beginUrl = async () => (await postJson(pb.url, "/api/chat/sso/begin", { redirect_url: SSO_CALLBACK })).json as { url: string };

  return { ssoSignIn, ssoSignUp, auditActions, beginUrl };
}

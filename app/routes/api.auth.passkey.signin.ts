import type { ActionFunctionArgs } from "@remix-run/node";
import { signInSchema } from "~/features/passkeys/validation";
import { passkeySignIn } from "~/features/passkeys/passkeys.server";
import { relyingParty } from "~/features/passkeys/webauthn.server";
import { fail, jsonResponse, readJson, requireCsrf, requirePost } from "~/server/http.server";
import { commitAuth } from "~/server/session.server";
import { sessionChangeHeaders } from "~/server/csrf.server";
import { loadSessionUser } from "~/features/auth/users.server";
import { rememberDevice } from "~/features/auth/device.server";
import { agentHeaders } from "~/features/devices/devices.server";

// Sign-in with a passkey: PocketBase verifies the assertion and answers a session token, which becomes
// the same session a password sign-in gets; the page also gets what unlocks the keys (PRF-wrapped).
export async function action({ request, context }: ActionFunctionArgs) {
  requirePost(request);
  await requireCsrf(request);
  const body = await readJson(request, signInSchema);
  const { token, userId, pb, unlock } = await passkeySignIn(body.response, relyingParty(request), context, agentHeaders(request));
  const user = await loadSessionUser(pb, userId);
  if (!user) fail(502, "Sign in failed");
  const headers = await sessionChangeHeaders(request, await commitAuth(request, token, user.id), token);
  headers.append("Set-Cookie", await rememberDevice(request, user.email));
  return jsonResponse({ user, unlock }, 200, headers);
}

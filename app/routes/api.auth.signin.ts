import type { ActionFunctionArgs } from "@remix-run/node";
import { signInRequestSchema } from "~/features/auth/validation";
import { fail, jsonResponse, readJson, requireCsrf, requirePost } from "~/server/http.server";
import { pbErrorMessage, pbStatus, pocketbase } from "~/server/pocketbase.server";
import { commitAuth } from "~/server/session.server";
import { loadSessionUser } from "~/features/auth/users.server";
import { sessionChangeHeaders } from "~/server/csrf.server";

// Sign-in with the login secret derived in the browser; answers with the wrapped keys so a new device can unwrap them.
export async function action({ request, context }: ActionFunctionArgs) {
  requirePost(request);
  await requireCsrf(request);
  const body = await readJson(request, signInRequestSchema);
  const pb = pocketbase(undefined, context);
  let auth: { token: string; record: { id: string } };
  try {
    auth = await pb.collection("users").authWithPassword(body.email, body.loginSecret);
  } catch (error) {
    const status = pbStatus(error);
    if (status === 400) fail(400, "Invalid email or password.");
    fail(status === 429 ? 429 : 502, pbErrorMessage(error) ?? "Sign in failed");
  }
  const user = await loadSessionUser(pb, auth.record.id);
  if (!user) fail(502, "Sign in failed");
  return jsonResponse({ user }, 200, await sessionChangeHeaders(request, await commitAuth(request, auth.token, user.id), auth.token));
}

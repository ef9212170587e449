import type { ActionFunctionArgs } from "@remix-run/node";
import { signInRequestSchema } from "~/features/auth/validation";
import { fail, jsonResponse, readJson, requireCsrf, requirePost } from "~/server/http.server";
import { pbErrorMessage, pbStatus, pocketbase } from "~/server/pocketbase.server";
import { commitAuth } from "~/server/session.server";
import { loadSessionUser } from "~/features/auth/users.server";
import { knownDeviceHeaders, rememberDevice } from "~/features/auth/device.server";
import { sessionChangeHeaders } from "~/server/csrf.server";
import { agentHeaders } from "~/features/devices/devices.server";

// Sign-in with the login secret derived in the browser; answers with the wrapped keys so a new device can unwrap them,
// and with the number of failed attempts at the account since its last sign-in.
export async function action({ request, context }: ActionFunctionArgs) {
  requirePost(request);
  await requireCsrf(request);
  const body = await readJson(request, signInRequestSchema);
  const pb = pocketbase(undefined, context);
  let auth: { token: string; record: { id: string }; meta?: { failedSignIns?: unknown } };
  try {
    auth = await pb.collection("users").authWithPassword(body.email, body.loginSecret, {
      headers: { ...(await knownDeviceHeaders(request, body.email)), ...agentHeaders(request) },
    });
  } catch (error) {
    const status = pbStatus(error);
    if (status === 400) fail(400, "Invalid email or password.");
    // 403: the account was deactivated (pocketbase/deactivated.go), checked only after a right password
    fail(status === 429 || status === 403 ? status : 502, pbErrorMessage(error) ?? "Sign in failed");
  }
  const user = await loadSessionUser(pb, auth.record.id);
  if (!user) fail(502, "Sign in failed");
  const failed = auth.meta?.failedSignIns;
  const failedSignIns = typeof failed === "number" && failed > 0 ? failed : 0;
  const headers = await sessionChangeHeaders(request, await commitAuth(request, auth.token, user.id), auth.token);
  headers.append("Set-Cookie", await rememberDevice(request, body.email));
  return jsonResponse({ user, failedSignIns }, 200, headers);
}

import type { ActionFunctionArgs } from "@remix-run/node";
import { signUpRequestSchema } from "~/features/auth/validation";
import { fail, jsonResponse, readJson, requireCsrf, requirePost } from "~/server/http.server";
import { pbErrorMessage, pbStatus, pocketbase } from "~/server/pocketbase.server";
import { commitAuth } from "~/server/session.server";
import { loadSessionUser } from "~/features/auth/users.server";
import { rememberDevice } from "~/features/auth/device.server";
import { sessionChangeHeaders } from "~/server/csrf.server";
import { agentHeaders } from "~/features/devices/devices.server";

// Sign-up: the browser already derived the login secret and wrapped its private keys.
export async function action({ request, context }: ActionFunctionArgs) {
  requirePost(request);
  await requireCsrf(request);
  const body = await readJson(request, signUpRequestSchema);
  const pb = pocketbase(undefined, context);
  let auth: { token: string; record: { id: string } };
  try {
    auth = await pb.send("/api/chat/signup", {
      method: "POST",
      body: {
        id: body.id,
        email: body.email,
        password: body.loginSecret,
        username: body.username,
        ecdh_public_key: body.ecdhPublicKey,
        rsa_public_key: body.rsaPublicKey,
        encrypted_ecdh_private_key: body.encryptedEcdhPrivateKey,
        encrypted_rsa_private_key: body.encryptedRsaPrivateKey,
        kdf_iterations: body.kdfIterations,
      },
      headers: agentHeaders(request),
    });
  } catch (error) {
    const status = pbStatus(error);
    fail((status >= 400 && status < 500) || status === 503 ? status : 502, pbErrorMessage(error) ?? "Sign up failed");
  }
  pb.authStore.save(auth.token, null);
  const user = await loadSessionUser(pb, auth.record.id);
  if (!user) fail(502, "Sign up failed");
  const headers = await sessionChangeHeaders(request, await commitAuth(request, auth.token, user.id), auth.token);
  headers.append("Set-Cookie", await rememberDevice(request, body.email));
  return jsonResponse({ user }, 200, headers);
}

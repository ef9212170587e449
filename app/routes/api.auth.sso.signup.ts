import type { ActionFunctionArgs } from "@remix-run/node";
import { ssoSignUpSchema } from "~/features/sso/validation";
import { fail, jsonResponse, readJson, requireCsrf, requirePost } from "~/server/http.server";
import { pbErrorMessage, pbStatus, pocketbase } from "~/server/pocketbase.server";
import { signedIn } from "~/features/sso/sso.server";
import { agentHeaders } from "~/features/devices/devices.server";

// A first single sign-on: the account is created with the keys this browser made and wrapped.
export async function action({ request, context }: ActionFunctionArgs) {
  requirePost(request);
  await requireCsrf(request);
  const body = await readJson(request, ssoSignUpSchema);
  let auth: { token: string; record: { id: string } };
  try {
    auth = await pocketbase(undefined, context).send("/api/chat/sso/signup", {
      method: "POST",
      headers: agentHeaders(request),
      body: {
        ticket: body.ticket,
        id: body.id,
        username: body.username,
        ecdh_public_key: body.ecdhPublicKey,
        rsa_public_key: body.rsaPublicKey,
        encrypted_ecdh_private_key: body.encryptedEcdhPrivateKey,
        encrypted_rsa_private_key: body.encryptedRsaPrivateKey,
        kdf_iterations: body.kdfIterations,
      },
    });
  } catch (error) {
    const status = pbStatus(error);
    fail(status >= 400 && status < 500 ? status : 502, pbErrorMessage(error) ?? "Sign up failed");
  }
  const { outcome, headers } = await signedIn(request, context, auth.token, auth.record.id, new Headers());
  if (outcome.kind !== "signedIn") fail(502, "Sign up failed");
  headers.set("X-CSRF-Token", outcome.csrfToken);
  return jsonResponse({ user: outcome.user }, 200, headers);
}

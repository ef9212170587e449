import type { ActionFunctionArgs } from "@remix-run/node";
import { ssoSignUpSchema } from "~/features/sso/validation";
import { readJson, requireCsrf, requirePost } from "~/server/http.server";
import { sessionFrom } from "~/features/sso/sso.server";

// A first single sign-on: the account is created with the keys this browser made and wrapped.
export async function action({ request, context }: ActionFunctionArgs) {
  requirePost(request);
  await requireCsrf(request);
  const body = await readJson(request, ssoSignUpSchema);
  return sessionFrom(
    request,
    context,
    "/api/chat/sso/signup",
    {
      ticket: body.ticket,
      id: body.id,
      username: body.username,
      ecdh_public_key: body.ecdhPublicKey,
      rsa_public_key: body.rsaPublicKey,
      encrypted_ecdh_private_key: body.encryptedEcdhPrivateKey,
      encrypted_rsa_private_key: body.encryptedRsaPrivateKey,
      kdf_iterations: body.kdfIterations,
      passphrase_later: body.passphraseLater === true,
    },
    "Sign up failed",
  );
}

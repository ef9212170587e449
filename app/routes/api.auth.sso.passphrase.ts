import type { ActionFunctionArgs } from "@remix-run/node";
import { ssoPassphraseSchema } from "~/features/sso/validation";
import { callHook } from "~/server/hooks.server";
import { jsonResponse, readJson, requireCsrf, requirePost, requireUser } from "~/server/http.server";

// After a passkey set up a first single sign-on's encryption: the keys wrapped under the encryption
// passphrase the person chose (in the browser; the passphrase is never sent), once.
export async function action({ request, context }: ActionFunctionArgs) {
  requirePost(request);
  await requireCsrf(request);
  const { pb } = await requireUser(request, context);
  const body = await readJson(request, ssoPassphraseSchema);
  await callHook(
    pb,
    "/api/chat/sso/passphrase",
    {
      ticket: body.ticket,
      encrypted_ecdh_private_key: body.encryptedEcdhPrivateKey,
      encrypted_rsa_private_key: body.encryptedRsaPrivateKey,
      kdf_iterations: body.kdfIterations,
    },
    "The passphrase could not be saved. Please try again.",
  );
  return jsonResponse({ saved: true });
}

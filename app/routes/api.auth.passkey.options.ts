import type { ActionFunctionArgs } from "@remix-run/node";
import { noBodySchema } from "~/features/passkeys/validation";
import { signInOptions } from "~/features/passkeys/passkeys.server";
import { relyingParty } from "~/features/passkeys/webauthn.server";
import { jsonResponse, readJson, requireCsrf, requirePost } from "~/server/http.server";

// The WebAuthn options for "Sign in with a passkey": a challenge PocketBase issued (5 minutes, once).
export async function action({ request, context }: ActionFunctionArgs) {
  requirePost(request);
  await requireCsrf(request);
  await readJson(request, noBodySchema);
  return jsonResponse({ options: await signInOptions(relyingParty(request), context) });
}

import type { ActionFunctionArgs } from "@remix-run/node";
import { noBodySchema } from "~/features/passkeys/validation";
import { registrationOptions } from "~/features/passkeys/passkeys.server";
import { relyingParty } from "~/features/passkeys/webauthn.server";
import { jsonResponse, readJson, requireCsrf, requirePost, requireUser } from "~/server/http.server";

// The WebAuthn options for "Add a passkey", with a challenge PocketBase issued for this user.
export async function action({ request, context }: ActionFunctionArgs) {
  requirePost(request);
  await requireCsrf(request);
  const { pb, userId } = await requireUser(request, context);
  await readJson(request, noBodySchema);
  return jsonResponse({ options: await registrationOptions(relyingParty(request), pb, userId) });
}

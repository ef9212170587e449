import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { registrationSchema } from "~/features/passkeys/validation";
import { addPasskey, listPasskeys } from "~/features/passkeys/passkeys.server";
import { relyingParty } from "~/features/passkeys/webauthn.server";
import { jsonResponse, readJson, requireCsrf, requirePost, requireUser } from "~/server/http.server";

/** The account's passkeys: names and dates. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const { pb } = await requireUser(request, context);
  return jsonResponse({ passkeys: await listPasskeys(pb) });
}

/** Adds a passkey: its attestation is checked here, PocketBase takes the challenge and stores it. */
export async function action({ request, context }: ActionFunctionArgs) {
  requirePost(request);
  await requireCsrf(request);
  const { pb } = await requireUser(request, context);
  const body = await readJson(request, registrationSchema);
  return jsonResponse({ passkey: await addPasskey(pb, relyingParty(request), body) });
}

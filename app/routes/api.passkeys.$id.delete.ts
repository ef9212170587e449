import type { ActionFunctionArgs } from "@remix-run/node";
import { PASSKEY_ID } from "~/features/passkeys/validation";
import { removePasskey } from "~/features/passkeys/passkeys.server";
import { fail, jsonResponse, requireCsrf, requirePost, requireUser } from "~/server/http.server";

export async function action({ request, params, context }: ActionFunctionArgs) {
  requirePost(request);
  await requireCsrf(request);
  const { pb } = await requireUser(request, context);
  if (!PASSKEY_ID.test(params.id ?? "")) fail(400, "Invalid passkey id.");
  await removePasskey(pb, params.id!);
  return jsonResponse({ ok: true });
}

import type { ActionFunctionArgs } from "@remix-run/node";
import { redeemResetCode } from "~/features/reset-codes/reset-codes.server";
import { redeemSchema } from "~/features/reset-codes/validation";
import { jsonResponse, readJson, requireCsrf, requirePost } from "~/server/http.server";
import { pocketbase } from "~/server/pocketbase.server";

/** POST /api/auth/reset-code {email, code}: signed out; the administrator's code becomes a reset token for /reset-password. */
export async function action({ request, context }: ActionFunctionArgs) {
  requirePost(request);
  await requireCsrf(request);
  const { email, code } = await readJson(request, redeemSchema);
  return jsonResponse(await redeemResetCode(pocketbase(undefined, context), email, code));
}

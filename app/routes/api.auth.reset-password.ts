import type { ActionFunctionArgs } from "@remix-run/node";
import { confirmReset, openReset } from "~/features/recovery/recovery.server";
import { resetRequestSchema } from "~/features/recovery/validation";
import { jsonResponse, readJson, requireCsrf, requirePost } from "~/server/http.server";
import { pocketbase } from "~/server/pocketbase.server";

/**
 * The /reset-password page's two steps, each with the emailed token (no session needed): "open" reads
 * the account and its recovery wrapping, "confirm" sets the new login secret and the keys wrapped for it.
 */
export async function action({ request, context }: ActionFunctionArgs) {
  requirePost(request);
  await requireCsrf(request);
  const body = await readJson(request, resetRequestSchema);
  const pb = pocketbase(undefined, context);
  if (body.intent === "open") return jsonResponse(await openReset(pb, body.token));
  return jsonResponse(await confirmReset(pb, body));
}

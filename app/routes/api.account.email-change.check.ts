import type { ActionFunctionArgs } from "@remix-run/node";
import { checkEmailChangeLink } from "~/features/account-data/account-data.server";
import { emailChangeCheckSchema } from "~/features/account-data/validation";
import { jsonResponse, readJson, requireCsrf, requirePost } from "~/server/http.server";

/**
 * The /change-email page (the link mailed to the new address), before it asks the password: whether
 * the link still works. A used or expired link says so at once. No session needed.
 */
export async function action({ request, context }: ActionFunctionArgs) {
  requirePost(request);
  await requireCsrf(request);
  await checkEmailChangeLink(context, await readJson(request, emailChangeCheckSchema));
  return jsonResponse({ valid: true });
}

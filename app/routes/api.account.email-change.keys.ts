import type { ActionFunctionArgs } from "@remix-run/node";
import { emailChangeKeys } from "~/features/account-data/account-data.server";
import { emailChangeKeysSchema } from "~/features/account-data/validation";
import { jsonResponse, readJson, requireCsrf, requirePost } from "~/server/http.server";

/**
 * The /change-email page (the link mailed to the new address): the account's wrapped keys, for the
 * link's token and the login secret of the current address. No session needed.
 */
export async function action({ request, context }: ActionFunctionArgs) {
  requirePost(request);
  await requireCsrf(request);
  return jsonResponse({ keys: await emailChangeKeys(context, await readJson(request, emailChangeKeysSchema)) });
}

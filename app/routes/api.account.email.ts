import type { ActionFunctionArgs } from "@remix-run/node";
import { requestEmailChange } from "~/features/account-data/account-data.server";
import { emailChangeRequestSchema } from "~/features/account-data/validation";
import { jsonResponse, readJson, requireCsrf, requirePost, requireUser } from "~/server/http.server";

/** Menu > Account > Email: mails a link to the new address once the password (its login secret) checks out; nothing changes yet. */
export async function action({ request, context }: ActionFunctionArgs) {
  requirePost(request);
  await requireCsrf(request);
  const { pb } = await requireUser(request, context);
  return jsonResponse(await requestEmailChange(pb, await readJson(request, emailChangeRequestSchema)));
}

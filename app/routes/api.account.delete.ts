import type { ActionFunctionArgs } from "@remix-run/node";
import { deleteAccount } from "~/features/account-data/account-data.server";
import { deleteAccountSchema } from "~/features/account-data/validation";
import { jsonResponse, readJson, requireCsrf, requirePost, requireUser } from "~/server/http.server";
import { destroyAuth } from "~/server/session.server";
import { sessionChangeHeaders } from "~/server/csrf.server";
import { revokeSession } from "~/server/session-check.server";

/** Menu > Account > Delete account: with the password's login secret, the signed-in account goes (pb_hooks/account_data.pb.js). */
export async function action({ request, context }: ActionFunctionArgs) {
  requirePost(request);
  await requireCsrf(request);
  const { pb, token } = await requireUser(request, context);
  const body = await readJson(request, deleteAccountSchema);
  const deleted = await deleteAccount(pb, body);
  if (!deleted.deleted) return jsonResponse(deleted);
  // already refused by PocketBase: this forgets the web server's note that the session is live
  await revokeSession(token, context).catch(() => undefined);
  return jsonResponse(deleted, 200, await sessionChangeHeaders(request, await destroyAuth(request), null));
}

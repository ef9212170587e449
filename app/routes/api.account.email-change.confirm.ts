import type { ActionFunctionArgs } from "@remix-run/node";
import { confirmEmailChange } from "~/features/account-data/account-data.server";
import { emailChangeConfirmSchema } from "~/features/account-data/validation";
import { jsonResponse, readJson, requireCsrf, requirePost } from "~/server/http.server";
import { destroyAuth, sessionUser } from "~/server/session.server";
import { sessionChangeHeaders } from "~/server/csrf.server";

/**
 * The /change-email page confirms: the new address, the login secret derived for it and the keys
 * wrapped again for it, in one step. Every session of the account ends; a browser signed in to it
 * is signed out here too (one signed in to another account stays).
 */
export async function action({ request, context }: ActionFunctionArgs) {
  requirePost(request);
  await requireCsrf(request);
  const changed = await confirmEmailChange(context, await readJson(request, emailChangeConfirmSchema));
  if ((await sessionUser(request)).userId !== changed.id) return jsonResponse({ email: changed.email });
  return jsonResponse({ email: changed.email }, 200, await sessionChangeHeaders(request, await destroyAuth(request), null));
}

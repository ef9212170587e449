import type { LoaderFunctionArgs } from "@remix-run/node";
import { exportAccount } from "~/features/account-data/account-data.server";
import { jsonResponse, requireUser } from "~/server/http.server";

/** Menu > Account > Your data: everything the server holds about the caller, as stored; the page opens what is encrypted. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const { pb } = await requireUser(request, context);
  return jsonResponse({ data: await exportAccount(pb) });
}

import type { LoaderFunctionArgs } from "@remix-run/node";
import { accountActivity } from "~/features/audit/audit.server";
import { jsonResponse, requireUser } from "~/server/http.server";

/** GET /api/account/activity: the caller's latest 50 audit log entries, as actor or target (Menu > Account). */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const { pb } = await requireUser(request, context);
  return jsonResponse({ items: await accountActivity(pb) });
}

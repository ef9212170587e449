import type { LoaderFunctionArgs } from "@remix-run/node";
import { listSessions } from "~/features/devices/devices.server";
import { jsonResponse, requireSessionCookie } from "~/server/http.server";
import { pocketbase } from "~/server/pocketbase.server";

/**
 * GET /api/auth/sessions: the account's signed-in sessions (Account > Devices), this one marked
 * current. PocketBase refuses a signed-out session, so the page also learns here that it was signed out.
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const { token } = await requireSessionCookie(request);
  return jsonResponse({ sessions: await listSessions(pocketbase(token, context), { token, context }) });
}

import type { LoaderFunctionArgs } from "@remix-run/node";
import { resetByEmail } from "~/features/recovery/recovery.server";
import { jsonResponse } from "~/server/http.server";
import { pocketbase } from "~/server/pocketbase.server";

/** GET /api/auth/reset-options: whether reset emails can be sent here ("Forgot your password?" says the way back before asking anything). */
export async function loader({ context }: LoaderFunctionArgs) {
  return jsonResponse({ available: await resetByEmail(pocketbase(undefined, context)) });
}

import type { LoaderFunctionArgs } from "@remix-run/node";
import { mailStatus } from "~/features/admin/admin.server";
import { jsonResponse, requireUser } from "~/server/http.server";

/** GET /api/admin/mail: whether SMTP is configured, and its host (never the password). */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const { pb } = await requireUser(request, context);
  return jsonResponse(await mailStatus(pb));
}

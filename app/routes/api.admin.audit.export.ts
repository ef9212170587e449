import type { LoaderFunctionArgs } from "@remix-run/node";
import { auditExport } from "~/features/audit/audit.server";
import { fail, requireUser } from "~/server/http.server";

/** GET /api/admin/audit/export: every entry as JSON Lines, downloaded as audit-YYYY-MM-DD.jsonl (owner and admins). */
export async function loader({ request, context }: LoaderFunctionArgs) {
  if (new URL(request.url).search) fail(400, "The export takes no parameters.");
  const { token } = await requireUser(request, context);
  return auditExport(token, context);
}

import type { LoaderFunctionArgs } from "@remix-run/node";
import { auditPage, auditQuery } from "~/features/audit/audit.server";
import { jsonResponse, requireUser } from "~/server/http.server";

/**
 * GET /api/admin/audit?page&perPage&upto&person&action&since&until: the audit log, newest first, with the chain's
 * verdict (owner and admins; PocketBase checks the role). Other methods: 405 (no action).
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const query = auditQuery(new URL(request.url));
  const { pb } = await requireUser(request, context);
  return jsonResponse(await auditPage(pb, query));
}

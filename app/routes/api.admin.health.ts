import type { LoaderFunctionArgs } from "@remix-run/node";
import { readHealth } from "~/features/health/health.server";
import { jsonResponse, requireUser } from "~/server/http.server";

/** GET /api/admin/health: whether replication keeps up (administrators only: the hook checks). */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const { pb } = await requireUser(request, context);
  return jsonResponse(await readHealth(pb));
}

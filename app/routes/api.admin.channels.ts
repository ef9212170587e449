import type { LoaderFunctionArgs } from "@remix-run/node";
import { listAdminChannels } from "~/features/admin/admin.server";
import { jsonResponse, requireUser } from "~/server/http.server";

/** GET /api/admin/channels: every channel with its member count and storage; names of classic channels only. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const { pb } = await requireUser(request, context);
  return jsonResponse(await listAdminChannels(pb));
}

import type { LoaderFunctionArgs } from "@remix-run/node";
import { listPending } from "~/features/device-link/device-link.server";
import { jsonResponse, requireUser } from "~/server/http.server";

// GET /api/device-links: new devices waiting for this account's approval ({requests}).
export async function loader({ request, context }: LoaderFunctionArgs) {
  const { pb } = await requireUser(request, context);
  return jsonResponse({ requests: await listPending(pb) });
}

import type { LoaderFunctionArgs } from "@remix-run/node";
import { listRequests } from "~/features/requests/requests.server";
import { jsonResponse, requireUser } from "~/server/http.server";

// GET /api/direct/requests: the caller's requests to join direct conversations ({requests}).
export async function loader({ request, context }: LoaderFunctionArgs) {
  const { pb } = await requireUser(request, context);
  return jsonResponse({ requests: await listRequests(pb) });
}

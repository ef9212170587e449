import type { LoaderFunctionArgs } from "@remix-run/node";
import { readRetention } from "~/features/retention/retention.server";
import { jsonResponse, requireUser } from "~/server/http.server";

/** GET /api/retention: the workspace's retention policy and the days that apply to each of the caller's conversations. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const { pb } = await requireUser(request, context);
  return jsonResponse(await readRetention(pb));
}

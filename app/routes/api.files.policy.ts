import type { LoaderFunctionArgs } from "@remix-run/node";
import { readFilePolicy } from "~/features/files/policy.server";
import { jsonResponse, requireUser } from "~/server/http.server";

/** GET /api/files/policy: which files people can send here and the largest (docs/decisions/0071-files-a-team-sends.md). */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const { pb } = await requireUser(request, context);
  return jsonResponse(await readFilePolicy(pb));
}

import type { ActionFunctionArgs } from "@remix-run/node";
import { answerLink } from "~/features/device-link/device-link.server";
import { approveSchema, claimSchema, denySchema, requestIdParam } from "~/features/device-link/validation";
import { fail, jsonResponse, readJson, requireCsrf, requirePost, requireUser } from "~/server/http.server";

// POST /api/device-links/:id/claim {approverKey} | release {approverKey} | approve {approverKey, sealed} |
// deny {}: this signed-in device answers a new device's request of its own account (release: not now).
export async function action({ request, params, context }: ActionFunctionArgs) {
  requirePost(request);
  await requireCsrf(request);
  const id = requestIdParam(params.id);
  if (!id.success) fail(404, "This request was not found.");
  const op = params.op;
  if (op !== "claim" && op !== "release" && op !== "approve" && op !== "deny") fail(404, "Not found.");
  const { pb } = await requireUser(request, context);
  const schema = op === "claim" || op === "release" ? claimSchema : op === "approve" ? approveSchema : denySchema;
  const body = (await readJson(request, schema)) as { approverKey?: string; sealed?: string };
  return jsonResponse(await answerLink(pb, id.data, op, body));
}

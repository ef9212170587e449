import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { listBlocked, unblock } from "~/features/requests/requests.server";
import { unblockSchema } from "~/features/requests/validation";
import { jsonResponse, readJson, requireCsrf, requirePost, requireUser } from "~/server/http.server";

// GET  /api/blocks: the people the caller blocked ({blocked}).
// POST /api/blocks {userId}: Unblock.
export async function loader({ request, context }: LoaderFunctionArgs) {
  const { pb } = await requireUser(request, context);
  return jsonResponse({ blocked: await listBlocked(pb) });
}

export async function action({ request, context }: ActionFunctionArgs) {
  requirePost(request);
  await requireCsrf(request);
  const { pb } = await requireUser(request, context);
  const body = await readJson(request, unblockSchema);
  return jsonResponse(await unblock(pb, body.userId));
}

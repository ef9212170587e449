import type { LoaderFunctionArgs } from "@remix-run/node";
import { channelIdParam } from "~/features/channels/params.server";
import { listThread } from "~/features/threads/threads.server";
import { fail, jsonResponse, requireUser } from "~/server/http.server";

/** GET /api/channels/:id/threads/:root: one thread's root, replies and their annotations (ciphertext). */
export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const channelId = channelIdParam(params);
  const root = params.root ?? "";
  if (!/^[a-z0-9]{15}$/.test(root)) fail(400, "Invalid thread id.");
  const { pb } = await requireUser(request, context);
  return jsonResponse(await listThread(pb, channelId, root));
}

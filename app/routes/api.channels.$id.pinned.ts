import type { LoaderFunctionArgs } from "@remix-run/node";
import { channelIdParam } from "~/features/channels/params.server";
import { listPinned } from "~/features/pinned/pinned.server";
import { jsonResponse, requireUser } from "~/server/http.server";

/** GET /api/channels/:id/pinned: the conversation's pin events and the messages they concern (ciphertext). */
export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const channelId = channelIdParam(params);
  const { pb } = await requireUser(request, context);
  return jsonResponse(await listPinned(pb, channelId));
}

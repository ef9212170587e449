import type { AppLoadContext } from "@remix-run/node";
import { postMessageRequestSchema } from "~/features/channels/validation";
import { channelIdParam } from "~/features/channels/params.server";
import { createMessage } from "~/features/messages/messages.server";
import { readJson, requireCsrf, requirePost, requireUser } from "~/server/http.server";
import type { RequestLike } from "~/server/request-like.server";

/**
 * Posts a ciphertext envelope; PocketBase's create rule checks membership and that the sender is the
 * caller. Answers the JSON body (POST /api/channels/:id/messages) (a failure throws its response). Also called by the fast route
 * (app/server/fast-routes.server.ts) with Node's request, without a Fetch API Request.
 */
export async function postMessage(request: RequestLike, params: Record<string, string | undefined>, context: AppLoadContext) {
  requirePost(request);
  await requireCsrf(request);
  const channelId = channelIdParam(params);
  const { pb, userId } = await requireUser(request, context);
  const body = await readJson(request, postMessageRequestSchema);
  const message = await createMessage(pb, {
    channelId,
    senderId: userId,
    encryptedContent: body.encryptedContent,
    senderPublicKey: body.senderPublicKey,
    kind: body.kind,
    targetId: body.targetId,
    clientId: body.clientId,
    epoch: body.epoch,
  });
  const { replayed, ...stored } = message;
  return replayed ? { message: stored, replayed } : { message: stored };
}

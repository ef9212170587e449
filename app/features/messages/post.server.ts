import type { AppLoadContext } from "@remix-run/node";
import { postMessageRequestSchema } from "~/features/messages/validation";
import { channelIdParam } from "~/features/channels/params.server";
import { createMessage } from "~/features/messages/messages.server";
import { readJson, requireCsrf, requirePost, requireSessionCookie } from "~/server/http.server";
import type { RequestLike } from "~/server/request-like.server";
import { requireLiveSessionAfterRefusal } from "~/server/session-check.server";

/** createMessage's answers to a request PocketBase refused (a signed-out token's included). */
const REFUSALS = new Set([400, 401, 403, 404, 409]);

/**
 * Posts a ciphertext envelope; PocketBase's create rule checks membership and that the sender is the
 * caller. Answers the JSON body (POST /api/channels/:id/messages) (a failure throws its response). Also called by the fast route
 * (app/fast-routes.server.ts) with Node's request, without a Fetch API Request.
 */
export async function postMessage(request: RequestLike, params: Record<string, string | undefined>, context: AppLoadContext) {
  requirePost(request);
  await requireCsrf(request);
  const channelId = channelIdParam(params);
  // The create needs a signed-in member, which PocketBase checks itself: the session's liveness is
  // asked only when it refuses (a send never waits for that extra round trip).
  const { token, userId } = await requireSessionCookie(request);
  const body = await readJson(request, postMessageRequestSchema);
  let message: Awaited<ReturnType<typeof createMessage>>;
  try {
    message = await createMessage(
      { token, context },
      {
        channelId,
        senderId: userId,
        encryptedContent: body.encryptedContent,
        senderPublicKey: body.senderPublicKey,
        kind: body.kind,
        targetId: body.targetId,
        thread: body.thread,
        clientId: body.clientId,
        epoch: body.epoch,
        mentions: body.mentions,
      },
    );
  } catch (thrown) {
    if (thrown instanceof Response && REFUSALS.has(thrown.status)) await requireLiveSessionAfterRefusal(token, context);
    throw thrown;
  }
  const { replayed, ...stored } = message;
  return replayed ? { message: stored, replayed } : { message: stored };
}

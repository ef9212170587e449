import type { AppLoadContext } from "@remix-run/node";
import { channelIdParam } from "~/features/channels/params.server";
import { postMessageRequestSchema } from "~/features/channels/validation";
import { createMessage } from "~/features/messages/messages.server";
import type { EncryptedMessage } from "~/features/messages/types";
import { readJson, requireCsrf, requirePost, requireUser, type RequestLike } from "~/server/http.server";

/**
 * POST /api/channels/:id/messages: posts a ciphertext envelope; PocketBase's create rule checks
 * membership and that the sender is the caller. Served by the route module under Remix and, in the
 * production server, before Remix (app/server/fast-routes.server.ts). Failures throw the JSON error
 * response (fail()).
 */
export async function sendMessage(
  request: RequestLike,
  params: Record<string, string | undefined>,
  context: AppLoadContext,
): Promise<{ message: EncryptedMessage }> {
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
  });
  return { message };
}

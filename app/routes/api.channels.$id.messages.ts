import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { messagePageSchema, postMessageRequestSchema } from "~/features/channels/validation";
import { fail, jsonResponse, readJson, requireCsrf, requirePost, requireUser } from "~/server/http.server";
import { createMessage, listMessages } from "~/features/messages/messages.server";
import { channelIdParam } from "~/features/channels/params.server";

export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const channelId = channelIdParam(params);
  const { pb } = await requireUser(request, context);
  const query = messagePageSchema.safeParse(Object.fromEntries(new URL(request.url).searchParams));
  if (!query.success) fail(400, "Invalid message page.");
  return jsonResponse(await listMessages(pb, channelId, query.data));
}

// Posts a ciphertext envelope; PocketBase's create rule checks membership and that the sender is the caller.
export async function action({ request, params, context }: ActionFunctionArgs) {
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
  return jsonResponse(replayed ? { message: stored, replayed } : { message: stored });
}

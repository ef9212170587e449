import type { ActionFunctionArgs } from "@remix-run/node";
import { joinChannelRequestSchema } from "~/features/channels/validation";
import { callHook } from "~/server/hooks.server";
import { jsonResponse, readJson, requireCsrf, requirePost, requireUser } from "~/server/http.server";

// Join: the PocketBase hook compares the join verifier in constant time and adds the member. Too many
// attempts, per client address (PocketBase's rate limiter), account or channel (the hook), all read alike.
const TOO_MANY_ATTEMPTS = "Too many attempts. Please wait a few minutes and try again.";

export async function action({ request, context }: ActionFunctionArgs) {
  requirePost(request);
  await requireCsrf(request);
  const { pb } = await requireUser(request, context, "Not authenticated");
  const body = await readJson(request, joinChannelRequestSchema);
  const result = await callHook<{ id: string; name: string }>(
    pb,
    "/api/chat/channels/join",
    {
      channel_id: body.channelId,
      verifier: body.verifier,
      ecdh_public_key: body.ecdhPublicKey,
      ...(body.inviteId ? { invite_id: body.inviteId } : {}),
    },
    "Failed to join channel",
    { 429: TOO_MANY_ATTEMPTS },
  );
  return jsonResponse({ id: result.id, name: result.name });
}

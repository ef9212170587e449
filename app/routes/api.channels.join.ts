import type { ActionFunctionArgs } from "@remix-run/node";
import { joinChannelRequestSchema } from "~/features/channels/validation";
import { callHook } from "~/server/hooks.server";
import { jsonResponse, readJson, requireCsrf, requirePost, requireUser } from "~/server/http.server";

// Join: the PocketBase hook compares the join verifier in constant time and adds the member. Too many
// attempts, per client address (PocketBase's rate limiter) or account (the hook), read alike; the
// channel's budget, spent by anyone's wrong guesses, says so (pb_hooks/lib/channels.js).
const TOO_MANY_ATTEMPTS = "Too many attempts. Please wait a few minutes and try again.";
const TOO_MANY_FOR_CHANNEL = /^Too many wrong passwords were tried for this channel lately\./;

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
    { 429: (said) => (said && TOO_MANY_FOR_CHANNEL.test(said) ? said : TOO_MANY_ATTEMPTS) },
  );
  return jsonResponse({ id: result.id, name: result.name });
}

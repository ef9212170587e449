import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { createChannelRequestSchema } from "~/features/channels/validation";
import { listChannels } from "~/features/channels/channels.server";
import { callHook } from "~/server/hooks.server";
import { jsonResponse, readJson, requireCsrf, requirePost, requireUser } from "~/server/http.server";

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { pb, userId } = await requireUser(request, context);
  return jsonResponse({ channels: await listChannels(pb, userId) });
}

// The spec's create_channel_with_member: one transaction in a PocketBase hook.
export async function action({ request, context }: ActionFunctionArgs) {
  requirePost(request);
  await requireCsrf(request);
  const { pb } = await requireUser(request, context, "User not authenticated");
  const body = await readJson(request, createChannelRequestSchema);
  const result = await callHook<{ id: string }>(
    pb,
    "/api/chat/channels",
    {
      id: body.id,
      name: body.name,
      verifier: body.verifier,
      ecdh_public_key: body.ecdhPublicKey,
      kdf_iterations: body.kdfIterations,
      sealed: body.sealed,
    },
    "Failed to create channel",
  );
  return jsonResponse({ id: result.id });
}

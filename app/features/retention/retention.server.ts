import type { ActionFunctionArgs } from "@remix-run/node";
import type PocketBase from "pocketbase";
import { channelIdParam } from "~/features/channels/params.server";
import type { RetentionPolicy } from "~/features/retention/retention";
import { channelRetentionSchema, type RetentionPreview, type WorkspaceRetention } from "~/features/retention/validation";
import { callHook, readHook } from "~/server/hooks.server";
import { readJson, requireCsrf, requirePost, requireUser } from "~/server/http.server";

interface Answer {
  days: number;
  per_channel: boolean;
  keep_pinned: boolean;
  channels: Record<string, number>;
  swept_at?: string;
}

/** The policy and the days that apply to each of the caller's conversations (pocketbase/retention.go). */
export async function readRetention(pb: PocketBase): Promise<RetentionPolicy> {
  const answer = await readHook<Answer>(pb, "/api/chat/retention", "The retention policy could not be read. Please try again.");
  return {
    days: answer.days,
    perChannel: answer.per_channel,
    keepPinned: answer.keep_pinned,
    channels: answer.channels ?? {},
    ...(answer.swept_at ? { sweptAt: answer.swept_at } : {}),
  };
}

/** An administrator's workspace policy (pb_hooks/retention.pb.js checks who and what). */
export const saveWorkspaceRetention = (pb: PocketBase, value: WorkspaceRetention) =>
  callHook<{ days: number; per_channel: boolean; keep_pinned: boolean }>(
    pb,
    "/api/chat/admin/retention",
    { days: value.days, per_channel: value.perChannel, keep_pinned: value.keepPinned },
    "The retention policy could not be saved. Please try again.",
  );

/** How many messages a workspace period would delete now (administrators only: the hook checks). */
export const previewWorkspaceRetention = (pb: PocketBase, value: RetentionPreview) =>
  callHook<{ messages: number }>(
    pb,
    "/api/chat/admin/retention/preview",
    { days: value.days, ...(value.keepPinned === undefined ? {} : { keep_pinned: value.keepPinned }) },
    "The messages older than that could not be counted.",
  );

/** A channel admin's shorter period for their channel (0: the workspace's). */
export const saveChannelRetention = (pb: PocketBase, channelId: string, days: number) =>
  callHook<{ channel_days: number; workspace_days: number }>(
    pb,
    "/api/chat/channels/retention",
    { channel_id: channelId, days },
    "The channel's retention could not be saved. Please try again.",
  );

/** How many messages a channel's own period would delete now from it (its admins only: the hook checks). */
export const previewChannelRetention = (pb: PocketBase, channelId: string, days: number) =>
  callHook<{ messages: number }>(
    pb,
    "/api/chat/channels/retention/preview",
    { channel_id: channelId, days },
    "The messages older than that could not be counted.",
  );

/** A channel admin's POST /api/channels/:id/retention[/preview] {days}: the caller's client, the channel and the days asked for. */
export async function channelRetentionRequest({ request, params, context }: ActionFunctionArgs) {
  requirePost(request);
  await requireCsrf(request);
  const channelId = channelIdParam(params);
  const { pb } = await requireUser(request, context);
  const { days } = await readJson(request, channelRetentionSchema);
  return { pb, channelId, days };
}

import type PocketBase from "pocketbase";
import { z } from "zod";
import { fail } from "~/server/http.server";
import { failOnOutage } from "~/server/outage.server";
import { pbErrorMessage, pbStatus } from "~/server/pocketbase.server";
import type { ChannelAccess, InvitePreview, InviteSummary } from "~/features/invites/types";

// The web side of invites, channel admins and bans: each call goes to its PocketBase route
// (pb_hooks/invites.pb.js, channel_admins.pb.js) as the caller; PocketBase decides who may, and its
// 4xx answers reach the page as they are.

export const inviteIdSchema = z.string().regex(/^[a-z0-9]{15}$/, "Invalid invite id.");
export const userIdSchema = z.string().regex(/^[a-z0-9]{15}$/, "Invalid user id.");
export const createInviteSchema = z.object({
  expires: z.enum(["1d", "7d", "30d", "never"]),
  maxUses: z.union([z.literal(1), z.literal(10), z.literal(0)]),
});

/** A route parameter checked against its schema, or a 400. */
export function param(schema: z.ZodString, value: string | undefined): string {
  const parsed = schema.safeParse(value ?? "");
  if (!parsed.success) fail(400, parsed.error.issues[0]?.message ?? "Invalid id.");
  return parsed.data;
}

async function send<T>(pb: PocketBase, path: string, request: { query?: Record<string, string>; body?: Record<string, unknown> }) {
  const failure = "The request could not be completed. Please try again.";
  try {
    return await pb.send<T>(path, request.body ? { method: "POST", body: request.body } : { method: "GET", query: request.query });
  } catch (error) {
    failOnOutage(error);
    const status = pbStatus(error);
    if (status >= 400 && status < 500) fail(status, pbErrorMessage(error) ?? failure);
    fail(502, failure);
  }
}

export const createInvite = (pb: PocketBase, channelId: string, limits: z.infer<typeof createInviteSchema>) =>
  send<{ id: string; expires: string; max_uses: number }>(pb, "/api/chat/invites", {
    body: { channel_id: channelId, expires: limits.expires, max_uses: limits.maxUses },
  });

export const previewInvite = (pb: PocketBase, id: string) => send<InvitePreview>(pb, "/api/chat/invites/preview", { query: { id } });

export const revokeInvite = (pb: PocketBase, id: string, asAdmin: boolean) =>
  send<{ ok: true }>(pb, "/api/chat/invites/revoke", { body: { invite_id: id, ...(asAdmin ? { as_admin: true } : {}) } });

export const allInvites = (pb: PocketBase) => send<{ invites: InviteSummary[] }>(pb, "/api/chat/invites", { query: {} });

export const channelAccess = (pb: PocketBase, channelId: string) =>
  send<ChannelAccess>(pb, "/api/chat/channels/access", { query: { channel_id: channelId } });

export const removeAndBan = (pb: PocketBase, channelId: string, userId: string) =>
  send<{ ok: true }>(pb, "/api/chat/channels/members/remove", { body: { channel_id: channelId, user_id: userId } });

export const liftBan = (pb: PocketBase, channelId: string, userId: string) =>
  send<{ ok: true }>(pb, "/api/chat/channels/bans/lift", { body: { channel_id: channelId, user_id: userId } });

export const setChannelAdmin = (pb: PocketBase, channelId: string, userId: string, admin: boolean) =>
  send<{ ok: true }>(pb, "/api/chat/channels/members/admin", { body: { channel_id: channelId, user_id: userId, admin } });

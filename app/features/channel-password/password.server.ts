import type PocketBase from "pocketbase";
import { z } from "zod";
import { fail } from "~/server/http.server";
import { failOnOutage } from "~/server/outage.server";
import { pbErrorMessage, pbStatus } from "~/server/pocketbase.server";
import type { KeyShare, PasswordChangeStart } from "~/conversation/channels/password-types";

// The web side of changing a classic channel's password (docs/decisions/0060-changing-the-channel-password.md):
// each call goes to its PocketBase route (pb_hooks/channel_password.pb.js) as the caller; PocketBase
// decides who may, and its 4xx answers reach the page as they are.

export const changePasswordSchema = z.object({
  epoch: z.number().int().min(1),
  verifier: z.string().regex(/^[A-Za-z0-9_-]{43}$/, "Invalid verifier."),
  shares: z
    .array(z.object({ userId: z.string().regex(/^[a-z0-9]{15}$/, "Invalid user id."), data: z.string().min(1).max(8192) }))
    .max(10000),
});

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

export const startPasswordChange = (pb: PocketBase, channelId: string) =>
  send<PasswordChangeStart>(pb, "/api/chat/channels/password", { query: { channel_id: channelId } });

export const changePassword = (pb: PocketBase, channelId: string, change: z.infer<typeof changePasswordSchema>) =>
  send<{ epoch: number; invites_revoked: number }>(pb, "/api/chat/channels/password", {
    body: {
      channel_id: channelId,
      epoch: change.epoch,
      verifier: change.verifier,
      shares: change.shares.map((s) => ({ user_id: s.userId, data: s.data })),
    },
  });

export const keyShares = async (pb: PocketBase) =>
  (
    await send<{ shares: { channel_id: string; from: string; epoch: number; data: string }[] }>(pb, "/api/chat/channels/key-shares", {
      query: {},
    })
  ).shares.map((s): KeyShare => ({ channelId: s.channel_id, from: s.from, epoch: s.epoch, data: s.data }));

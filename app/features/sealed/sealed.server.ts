import type PocketBase from "pocketbase";
import { z } from "zod";
import { callHook } from "~/server/hooks.server";
import { channelIdSchema } from "~/features/channels/validation";
import { fail } from "~/server/http.server";
import { failOnOutage } from "~/server/outage.server";
import { pbErrorMessage, pbStatus } from "~/server/pocketbase.server";

/**
 * The page's side of the delivery service of sealed channels (pb_hooks/mls.pb.js): each call is passed
 * on with the caller's token, so PocketBase decides membership, password checks and epoch order.
 */
const mlsData = z
  .string()
  .min(1)
  .max(200_000)
  .regex(/^[A-Za-z0-9_-]+$/, "MLS data must be base64url.");
const epoch = z.number().int().min(0).max(1_000_000_000);
const verifier = z.string().regex(/^[A-Za-z0-9_-]{43}$/, "Verifier must be a 43-character base64url string.");

export const sealedSchemas = {
  group: z.object({ groupInfo: mlsData }).strict(),
  // (messages: the answer carries the epoch's messages too, catch-up.server.ts)
  commits: z
    .object({ epoch, commit: mlsData, groupInfo: mlsData, welcome: mlsData.optional(), messages: z.literal(true).optional() })
    .strict(),
  // The creator's new group replaces the current one (ADR 0049).
  reset: z.object({ groupInfo: mlsData }).strict(),
  // A direct conversation's participant shows no verifier: PocketBase checks they are listed.
  "group-info": z.object({ verifier: verifier.optional() }).strict(),
  "external-join": z
    .object({ verifier: verifier.optional(), epoch, commit: mlsData, groupInfo: mlsData, ecdhPublicKey: z.string().min(1).max(1000) })
    .strict(),
};
export type SealedOperation = keyof typeof sealedSchemas;
export const isSealedOperation = (op: string | undefined): op is SealedOperation => op !== undefined && Object.hasOwn(sealedSchemas, op);

// ("conversation": the same answer serves sealed channels and direct conversations, ADR 0079)
const STALE = "The conversation's keys changed meanwhile: fetch the newer commits and try again.";

/** One write to the delivery service; its 409 (another commit won the epoch) reaches the page as 409. */
export function sealedWrite<O extends SealedOperation>(pb: PocketBase, channelId: string, op: O, body: z.infer<(typeof sealedSchemas)[O]>) {
  const b = body as Record<string, unknown>;
  const payload: Record<string, unknown> = { channel_id: channelId };
  if (b.groupInfo !== undefined) payload.group_info = b.groupInfo;
  if (b.commit !== undefined) payload.commit = b.commit;
  if (b.welcome !== undefined) payload.welcome = b.welcome;
  if (b.epoch !== undefined) payload.epoch = b.epoch;
  if (b.verifier !== undefined) payload.verifier = b.verifier;
  if (b.ecdhPublicKey !== undefined) payload.ecdh_public_key = b.ecdhPublicKey;
  const path = { group: "groups", commits: "commits", reset: "reset", "group-info": "group-info", "external-join": "external-join" }[op];
  return callHook<Record<string, unknown>>(
    pb,
    `/api/chat/mls/${path}`,
    payload,
    "The sealed channel could not be updated. Please try again.",
    {
      // a group's 409 says which it is (already sealed, or created unsealed); any other's is a stale epoch
      ...(op === "group" ? {} : { 409: STALE }),
    },
  );
}

/** Which group of a channel is current (ADR 0049): 0 until its creator first resets its encryption. */
export interface GroupMark {
  generation: number;
  reset_by: string;
  reset_at: string;
}

/** The accepted commits from epoch `since` on, in order, and which group they belong to. */
export async function commitsSince(pb: PocketBase, channelId: string, since: number) {
  try {
    return await pb.send<{ commits: { epoch: number; data: string }[]; group?: GroupMark }>("/api/chat/mls/commits", {
      method: "GET",
      query: { channel_id: channelId, since },
    });
  } catch (error) {
    failOnOutage(error);
    const status = pbStatus(error);
    if (status >= 400 && status < 500) fail(status, pbErrorMessage(error) ?? "The channel's commits could not be read.");
    fail(502, "The channel's commits could not be read.");
  }
}

/** The Welcomes of commits that added devices (newest first): a device joins from one made for its key package. */
export async function welcomesOf(pb: PocketBase, channelId: string) {
  try {
    const list = await pb.collection("mls_welcomes").getList<{ epoch: number; data: string }>(1, 20, {
      filter: pb.filter("channel = {:channel}", { channel: channelId }),
      sort: "-epoch",
      fields: "epoch,data",
    });
    return { welcomes: list.items.map((w) => ({ epoch: w.epoch, data: w.data })) };
  } catch (error) {
    failOnOutage(error);
    fail(502, "The channel's welcomes could not be read.");
  }
}

const device = z.string().regex(/^[A-Za-z0-9_-]{8,64}$/, "device must be 8 to 64 letters, digits, - or _.");
export const packagesSchema = z.object({ device, oneTime: z.array(mlsData.max(8000)).max(50), lastResort: mlsData.max(8000) }).strict();
export const claimSchema = z
  .object({
    userId: z.string().regex(/^[a-z0-9]{15}$/, "userId must be a user id."),
    channelId: channelIdSchema,
  })
  .strict();

/** This device's one-time key packages on the server: how many are left, and when the oldest was made. */
export async function packagesLeft(pb: PocketBase, userId: string, deviceId: string) {
  try {
    const list = await pb.collection("mls_key_packages").getList<{ created: string }>(1, 1, {
      filter: pb.filter("user = {:user} && device = {:device} && last_resort = false", { user: userId, device: deviceId }),
      sort: "created",
      fields: "created",
    });
    return { left: list.totalItems, oldest: list.items[0]?.created ?? null };
  } catch (error) {
    failOnOutage(error);
    fail(502, "This device's key packages could not be read.");
  }
}

export const uploadPackages = (pb: PocketBase, body: z.infer<typeof packagesSchema>) =>
  callHook(
    pb,
    "/api/chat/mls/key-packages",
    { device: body.device, one_time: body.oneTime, last_resort: body.lastResort },
    "The key packages could not be saved.",
  );

/** One key package per device of `userId` for the conversation `channelId` (the same ones again on a retry). */
export const claimPackages = (pb: PocketBase, body: z.infer<typeof claimSchema>) =>
  callHook<{ key_packages: { device: string; data: string; lastResort: boolean }[] }>(
    pb,
    "/api/chat/mls/key-packages/claim",
    { user_id: body.userId, channel_id: body.channelId },
    "The key packages could not be claimed.",
  );

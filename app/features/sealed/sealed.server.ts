import type PocketBase from "pocketbase";
import { z } from "zod";
import { callHook } from "~/features/channels/channels.server";
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
  commits: z.object({ epoch, commit: mlsData, groupInfo: mlsData }).strict(),
  // A direct conversation's participant shows no verifier: PocketBase checks they are listed.
  "group-info": z.object({ verifier: verifier.optional() }).strict(),
  "external-join": z
    .object({ verifier: verifier.optional(), epoch, commit: mlsData, groupInfo: mlsData, ecdhPublicKey: z.string().min(1).max(1000) })
    .strict(),
};
export type SealedOperation = keyof typeof sealedSchemas;
export const isSealedOperation = (op: string | undefined): op is SealedOperation => op !== undefined && op in sealedSchemas;

const STALE = "The channel's keys changed meanwhile: fetch the newer commits and try again.";

/** One write to the delivery service; its 409 (another commit won the epoch) reaches the page as 409. */
export function sealedWrite<O extends SealedOperation>(pb: PocketBase, channelId: string, op: O, body: z.infer<(typeof sealedSchemas)[O]>) {
  const b = body as Record<string, unknown>;
  const payload: Record<string, unknown> = { channel_id: channelId };
  if (b.groupInfo !== undefined) payload.group_info = b.groupInfo;
  if (b.commit !== undefined) payload.commit = b.commit;
  if (b.epoch !== undefined) payload.epoch = b.epoch;
  if (b.verifier !== undefined) payload.verifier = b.verifier;
  if (b.ecdhPublicKey !== undefined) payload.ecdh_public_key = b.ecdhPublicKey;
  const path = { group: "groups", commits: "commits", "group-info": "group-info", "external-join": "external-join" }[op];
  return callHook<Record<string, unknown>>(
    pb,
    `/api/chat/mls/${path}`,
    payload,
    "The sealed channel could not be updated. Please try again.",
    {
      409: op === "group" ? "This channel is already sealed." : STALE,
    },
  );
}

/** The accepted commits from epoch `since` on, in order. */
export async function commitsSince(pb: PocketBase, channelId: string, since: number) {
  try {
    return await pb.send<{ commits: { epoch: number; data: string }[] }>("/api/chat/mls/commits", {
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

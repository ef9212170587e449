import type PocketBase from "pocketbase";
import type { Channel } from "~/features/channels/types";
import { fail } from "~/server/http.server";
import { pbErrorMessage, pbStatus } from "~/server/pocketbase.server";
import { failOnOutage } from "~/server/outage.server";

type ChannelRecord = { id: string; name: string; created_by: string; created: string; kdf_iterations?: number; sealed?: boolean };

export const toChannel = (r: ChannelRecord): Channel => ({
  id: r.id,
  name: r.name,
  createdBy: r.created_by,
  created: r.created,
  kdfIterations: r.kdf_iterations ?? 0,
  sealed: r.sealed === true,
});

/** The caller's channels, newest first. PocketBase's list rule already limits them to the caller's memberships. */
export async function listChannels(pb: PocketBase): Promise<Channel[]> {
  const records = await pb.collection("channels").getFullList<ChannelRecord>({
    sort: "-created,-id",
    fields: "id,name,created_by,created,kdf_iterations,sealed",
    batch: 500,
  });
  return records.map(toChannel);
}

/**
 * Calls one of our PocketBase server functions; its 4xx message reaches the page (or the one `messages`
 * gives for that status), anything else becomes `fallback`.
 */
export async function callHook<T>(
  pb: PocketBase,
  path: string,
  body: unknown,
  fallback: string,
  messages: Partial<Record<number, string>> = {},
): Promise<T> {
  try {
    return await pb.send<T>(path, { method: "POST", body: body as Record<string, unknown> });
  } catch (error) {
    failOnOutage(error);
    const status = pbStatus(error);
    if (status >= 400 && status < 500) fail(status, messages[status] ?? pbErrorMessage(error) ?? fallback);
    fail(502, fallback);
  }
}

/**
 * Deletes one membership: the member's own (leaving) or, for the channel's creator, another member's
 * (removal). PocketBase's delete rule decides which is allowed; `refused` is the answer otherwise.
 */
export async function deleteMembership(pb: PocketBase, channelId: string, userId: string, texts: { missing: string; refused: string }) {
  let membership: { id: string };
  try {
    membership = await pb
      .collection("channel_members")
      .getFirstListItem(pb.filter("channel = {:channel} && user = {:user}", { channel: channelId, user: userId }), { fields: "id" });
  } catch (error) {
    if (pbStatus(error) === 404) fail(404, texts.missing);
    throw error;
  }
  try {
    await pb.collection("channel_members").delete(membership.id);
  } catch (error) {
    fail(pbStatus(error) === 404 ? 403 : 502, texts.refused);
  }
}

export const leaveChannel = (pb: PocketBase, channelId: string, userId: string) =>
  deleteMembership(pb, channelId, userId, {
    missing: "Channel not found",
    refused: "The channel creator cannot leave; delete the channel instead.",
  });

export async function deleteChannel(pb: PocketBase, channelId: string) {
  try {
    await pb.collection("channels").delete(channelId);
  } catch (error) {
    const status = pbStatus(error);
    // PocketBase answers 404 both for "not yours to delete" and "no such channel".
    if (status === 404 || status === 403) fail(403, "Only the channel creator can delete this channel.");
    fail(502, "Failed to delete channel");
  }
}

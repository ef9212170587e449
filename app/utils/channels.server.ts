import type PocketBase from "pocketbase";
import type { Channel } from "~/chat-types";
import { fail } from "./http.server";
import { failOnOutage } from "./outage.server";
import { pbErrorMessage, pbStatus } from "./pocketbase.server";

type ChannelRecord = { id: string; name: string; created_by: string; created: string; kdf_iterations?: number };

export const toChannel = (r: ChannelRecord): Channel => ({
  id: r.id,
  name: r.name,
  createdBy: r.created_by,
  created: r.created,
  kdfIterations: r.kdf_iterations ?? 0,
});

/** The caller's channels, newest first. PocketBase's list rule already limits them to the caller's memberships. */
export async function listChannels(pb: PocketBase): Promise<Channel[]> {
  const records = await pb.collection("channels").getFullList<ChannelRecord>({
    sort: "-created,-id",
    fields: "id,name,created_by,created,kdf_iterations",
    batch: 500,
  });
  return records.map(toChannel);
}

/** Calls one of our PocketBase server functions; its 4xx message reaches the page, anything else becomes `fallback`. */
export async function callHook<T>(pb: PocketBase, path: string, body: unknown, fallback: string): Promise<T> {
  try {
    return await pb.send<T>(path, { method: "POST", body: body as Record<string, unknown> });
  } catch (error) {
    failOnOutage(error);
    const status = pbStatus(error);
    if (status >= 400 && status < 500) fail(status, pbErrorMessage(error) ?? fallback);
    fail(502, fallback);
  }
}

export async function leaveChannel(pb: PocketBase, channelId: string, userId: string) {
  let membership: { id: string };
  try {
    membership = await pb
      .collection("channel_members")
      .getFirstListItem(pb.filter("channel = {:channel} && user = {:user}", { channel: channelId, user: userId }), { fields: "id" });
  } catch (error) {
    if (pbStatus(error) === 404) fail(404, "Channel not found");
    throw error;
  }
  try {
    await pb.collection("channel_members").delete(membership.id);
  } catch (error) {
    fail(pbStatus(error) === 404 ? 403 : 502, "The channel creator cannot leave; delete the channel instead.");
  }
}

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

import type PocketBase from "pocketbase";
import type { Channel } from "~/conversation/channels/types";
import { fail } from "~/server/http.server";
import { pbStatus } from "~/server/pocketbase.server";
import { listProfiles } from "~/features/auth/users.server";

type ChannelRecord = {
  id: string;
  name: string;
  created_by: string;
  created: string;
  kdf_iterations?: number;
  sealed?: boolean;
  direct?: boolean;
  direct_key?: string;
  sealed_name?: string;
};

export const toChannel = (r: ChannelRecord): Channel => ({
  id: r.id,
  name: r.name,
  createdBy: r.created_by,
  created: r.created,
  kdfIterations: r.kdf_iterations ?? 0,
  sealed: r.sealed === true,
  ...(r.direct ? { direct: true, oneToOne: Boolean(r.direct_key), ...(r.sealed_name ? { sealedName: r.sealed_name } : {}) } : {}),
});

/**
 * The caller's channels and direct conversations, newest first (PocketBase's list rule already limits
 * them to the caller's memberships); each direct conversation with its participants, and called by
 * the others' usernames unless it has a name.
 */
export async function listChannels(pb: PocketBase, viewerId: string): Promise<Channel[]> {
  const records = await pb.collection("channels").getFullList<ChannelRecord>({
    sort: "-created,-id",
    fields: "id,name,created_by,created,kdf_iterations,sealed,direct,direct_key,sealed_name",
    batch: 500,
  });
  const channels = records.map(toChannel);
  if (!channels.some((c) => c.direct)) return channels;
  const memberships = await pb
    .collection("channel_members")
    .getFullList<{ channel: string; user: string }>({ filter: "channel.direct = true", fields: "channel,user", batch: 1000 });
  // A one-to-one is called by the other person, also after they left it (its key names both).
  const other = (r: ChannelRecord) => r.direct_key?.split(":").find((id) => id !== viewerId);
  const ids = [...new Set([...memberships.map((m) => m.user), ...records.flatMap((r) => other(r) ?? [])])];
  const names = new Map<string, string>();
  const deactivated = new Set<string>();
  const deleted = new Set<string>();
  for (const p of await listProfiles(pb, ids)) {
    names.set(p.id, p.username);
    if ("deactivated" in p) deactivated.add(p.id);
    if ("deleted" in p) deleted.add(p.id);
  }
  channels.forEach((channel, i) => {
    if (!channel.direct) return;
    channel.participants = memberships
      .filter((m) => m.channel === channel.id)
      .map((m) => ({ id: m.user, username: names.get(m.user) ?? "" }))
      .sort((a, b) => a.username.localeCompare(b.username));
    const others = channel.participants.filter((p) => p.id !== viewerId).map((p) => p.username);
    const partner = other(records[i]);
    // An unnamed conversation is called by the other participants' names.
    if (!channel.name) channel.name = (partner ? names.get(partner) : others.join(", ")) || "Only you";
    if (partner && deactivated.has(partner)) channel.partnerDeactivated = true;
    if (partner && deleted.has(partner)) channel.partnerDeleted = true;
  });
  return channels;
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

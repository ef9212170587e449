import { api } from "~/lib/api.client";
import type { ChannelMember } from "~/features/members/types";
import { mentionsUser } from "~/features/notifications/notify";

/**
 * The members a message's text mentions (@username), named with the message so the server can push
 * to them while their page is closed (it cannot read the text). Asked only when the text has an "@";
 * a conversation's members are kept for a minute. Any failure names nobody: the message still goes.
 */
const KEEP_MS = 60_000;
const known = new Map<string, { at: number; members: Promise<ChannelMember[]> }>();

function membersOf(channelId: string): Promise<ChannelMember[]> {
  const hit = known.get(channelId);
  if (hit && Date.now() - hit.at < KEEP_MS) return hit.members;
  const members = api<{ members: ChannelMember[] }>(`/api/channels/${channelId}/members`).then((r) => r.members);
  known.set(channelId, { at: Date.now(), members });
  members.catch(() => known.delete(channelId));
  return members;
}

export async function mentionedMembers(channelId: string, senderId: string, text: string): Promise<string[]> {
  if (!text.includes("@")) return [];
  try {
    const members = await membersOf(channelId);
    return members
      .filter((m) => m.userId !== senderId && mentionsUser(text, m.username))
      .map((m) => m.userId)
      .slice(0, 50);
  } catch {
    return [];
  }
}

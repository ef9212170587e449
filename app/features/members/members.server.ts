import type PocketBase from "pocketbase";
import { fail } from "~/server/http.server";
import type { ChannelMember, MemberEvent } from "~/features/members/types";
import { listProfiles } from "~/features/auth/users.server";

type MemberRecord = {
  id: string;
  user: string;
  created: string;
  added_by?: string;
  admin?: boolean;
  expand?: { channel?: { created_by: string } };
};

/** A channel's members with their usernames, the creator marked; PocketBase's rules show them only to members. */
export async function listMembers(pb: PocketBase, channelId: string): Promise<ChannelMember[]> {
  const records = await pb.collection("channel_members").getFullList<MemberRecord>({
    filter: pb.filter("channel = {:channel}", { channel: channelId }),
    fields: "id,user,created,added_by,admin,expand.channel.created_by",
    expand: "channel",
    sort: "created,id",
    batch: 500,
  });
  if (records.length === 0) fail(404, "Channel not found");
  const creator = records[0].expand?.channel?.created_by ?? "";
  const profiles = new Map(
    (
      await listProfiles(
        pb,
        records.map((r) => r.user),
      )
    ).map((p) => [p.id, p]),
  );
  return records.map((r) => ({
    userId: r.user,
    username: profiles.get(r.user)?.username ?? "",
    ...roleOf(profiles.get(r.user)),
    isCreator: r.user === creator,
    ...(r.admin ? { isAdmin: true } : {}),
    joined: r.created,
    ...(r.added_by ? { addedBy: r.added_by } : {}),
  }));
}

/** A person's role and status as lists show them (a deleted account has neither). */
function roleOf(profile: object | undefined) {
  if (!profile || !("role" in profile)) return { role: "member", deactivated: false };
  return { role: String(profile.role), deactivated: "deactivated" in profile && Boolean(profile.deactivated) };
}

/** The most membership lines a page reads at once: the conversation's latest. */
export const MEMBER_EVENTS_MAX = 200;

type EventRecord = { id: string; user: string; username: string; event: MemberEvent["event"]; added_by_name?: string; created: string };

/** The conversation's latest membership lines, oldest first (PocketBase's rules show them to members only). */
export async function listMemberEvents(pb: PocketBase, channelId: string): Promise<MemberEvent[]> {
  const page = await pb.collection("member_events").getList<EventRecord>(1, MEMBER_EVENTS_MAX, {
    filter: pb.filter("channel = {:channel}", { channel: channelId }),
    sort: "-created,-id",
    fields: "id,user,username,event,added_by_name,created",
    skipTotal: true,
  });
  return page.items.reverse().map((r) => ({
    id: r.id,
    userId: r.user,
    username: r.username,
    event: r.event,
    ...(r.added_by_name ? { addedByName: r.added_by_name } : {}),
    created: r.created,
  }));
}

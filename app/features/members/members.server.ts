import type PocketBase from "pocketbase";
import { fail } from "~/server/http.server";
import type { ChannelMember } from "~/features/members/types";
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

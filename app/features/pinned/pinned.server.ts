import type PocketBase from "pocketbase";
import { toMessage } from "~/features/messages/messages.server";
import type { EncryptedMessage } from "~/conversation/messages/types";
import { failOnOutage } from "~/server/outage.server";
import { listByIds } from "~/server/pocketbase.server";
import { fail } from "~/server/http.server";

type MessageRecord = Parameters<typeof toMessage>[0];
const FIELDS = "id,channel,sender,encrypted_content,created,kind,target,epoch";

/**
 * Every pin event of a conversation (pinning or unpinning: the page reads which) with the messages they
 * concern and those messages' edits, for the Pinned panel: PocketBase's member rule applies to both lists (a non-member gets none).
 */
export async function listPinned(pb: PocketBase, channelId: string): Promise<{ messages: EncryptedMessage[] }> {
  try {
    const events = await pb.collection("messages").getFullList<MessageRecord>({
      filter: pb.filter("channel = {:channel} && kind = 'pin'", { channel: channelId }),
      sort: "created,id",
      fields: FIELDS,
      batch: 500,
    });
    // Nothing pinned, or not a member: the memberships, which only members see, tell which.
    if (events.length === 0) {
      const members = await pb.collection("channel_members").getList(1, 1, {
        filter: pb.filter("channel = {:channel}", { channel: channelId }),
        fields: "id",
        skipTotal: true,
      });
      if (members.items.length === 0) fail(404, "Channel not found");
    }
    const targetIds = [...new Set(events.map((e) => e.target).filter((id): id is string => Boolean(id)))];
    const [targets, edits] = await Promise.all([
      listByIds<MessageRecord>(pb, "messages", targetIds, {
        fields: FIELDS,
        where: "channel = {:channel} && kind = ''",
        params: { channel: channelId },
      }),
      // their edits: the panel shows each message as it reads now
      listByIds<MessageRecord>(pb, "messages", targetIds, {
        fields: FIELDS,
        where: "channel = {:channel} && kind = 'edit'",
        params: { channel: channelId },
        by: "target",
      }),
    ]);
    return { messages: [...targets, ...edits, ...events].map(toMessage) };
  } catch (error) {
    if (error instanceof Response) throw error;
    failOnOutage(error);
    throw error;
  }
}

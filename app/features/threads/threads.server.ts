import type PocketBase from "pocketbase";
import { toMessage } from "~/features/messages/messages.server";
import type { EncryptedMessage } from "~/features/messages/types";
import { fail } from "~/server/http.server";
import { failOnOutage } from "~/server/outage.server";

type MessageRecord = Parameters<typeof toMessage>[0];
const FIELDS = "id,channel,sender,encrypted_content,created,kind,target,thread,epoch";
const MAX_RECORDS = 2000;

/**
 * One thread: its root, every reply (in the thread only or in the channel too) and their edits,
 * reactions and pins, oldest first (ciphertext). PocketBase's member rule applies: a non-member, or a
 * root that is not in the channel, gets a 404.
 */
export async function listThread(pb: PocketBase, channelId: string, rootId: string): Promise<{ messages: EncryptedMessage[] }> {
  try {
    const records = await pb.collection("messages").getList<MessageRecord>(1, MAX_RECORDS, {
      filter: pb.filter("channel = {:channel} && (id = {:root} || thread = {:root} || target = {:root} || target.thread = {:root})", {
        channel: channelId,
        root: rootId,
      }),
      sort: "created,id",
      fields: FIELDS,
      skipTotal: true,
    });
    if (!records.items.some((r) => r.id === rootId && !r.kind && !r.thread)) fail(404, "This thread is not there.");
    return { messages: records.items.map(toMessage) };
  } catch (error) {
    if (error instanceof Response) throw error;
    failOnOutage(error);
    throw error;
  }
}

import type PocketBase from "pocketbase";
import { toMessage } from "~/features/messages/messages.server";
import type { EncryptedMessage } from "~/conversation/messages/types";
import type { RecentThread } from "~/features/threads/types";
import { fail } from "~/server/http.server";
import { failOnOutage } from "~/server/outage.server";
import { listByIds } from "~/server/pocketbase.server";
import { threadsSeen } from "~/features/threads/seen.server";

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

const RECENT_DAYS = 30;
const RECENT_MAX = 500;

/**
 * The threads of the user's conversations with replies in the last 30 days (at most 500 replies), newest
 * first, and when the user saw each on any of their devices (a thread seen before then: none).
 */
export async function recentThreads(pb: PocketBase): Promise<{ threads: RecentThread[]; seen: Record<string, string> }> {
  const since = new Date(Date.now() - RECENT_DAYS * 86_400_000).toISOString().replace("T", " ");
  try {
    // (`thread > ''`, not `!= ''`: SQLite reads the replies through the index of threads then; `!=` read
    // every message of the server with its membership check, about 0.3 s at 100,000 messages)
    const replies = await pb.collection("messages").getList<MessageRecord>(1, RECENT_MAX, {
      filter: pb.filter("thread > '' && (kind = '' || kind = 'reply') && created >= {:since}", { since }),
      sort: "-created,-id",
      fields: "id,channel,sender,created,thread",
      skipTotal: true,
    });
    const rootIds = [...new Set(replies.items.map((r) => r.thread ?? ""))].filter(Boolean);
    const roots = await listByIds<MessageRecord>(pb, "messages", rootIds, { fields: "id,channel,sender" });
    const byRoot = new Map(
      roots.map((r) => [r.id, { root: r.id, channelId: r.channel, rootSender: r.sender, replies: [] as RecentThread["replies"] }]),
    );
    for (const r of replies.items) byRoot.get(r.thread ?? "")?.replies.push({ sender: r.sender, created: r.created });
    return { threads: [...byRoot.values()], seen: await threadsSeen(pb, since) };
  } catch (error) {
    failOnOutage(error);
    throw error;
  }
}

import type { AppLoadContext } from "@remix-run/node";
import type PocketBase from "pocketbase";
import type { AnnotationKind, EncryptedMessage, MessagePage, ThreadSummary } from "~/conversation/messages/types";
import { fail } from "~/server/http.server";
import { toAttachment, toPreview, type AttachmentRecord, type PreviewRecord } from "~/features/files/attachments.server";
import { failOnOutage, failOnTooMany, fieldErrors } from "~/server/outage.server";
import { requireLiveSessionAfterRefusal, SESSION_ENDED_MESSAGE } from "~/server/session-check.server";
import { pbStatus, pocketbase, pocketbasePost } from "~/server/pocketbase.server";
import { listProfiles, toPublicProfile } from "~/features/auth/users.server";
import { awaitCommit } from "~/features/messages/committed.server";

type MessageRecord = {
  id: string;
  channel: string;
  sender: string;
  encrypted_content: string;
  created: string;
  kind?: string;
  target?: string;
  thread?: string;
  epoch?: number;
  /** A live reply's: who takes part in its thread (pocketbase/thread_people.go). */
  thread_people?: string[];
  expand?: { file_attachments_via_message?: AttachmentRecord[]; link_previews_via_message?: PreviewRecord[] };
};

export const toMessage = (r: MessageRecord): EncryptedMessage => ({
  id: r.id,
  channelId: r.channel,
  senderId: r.sender,
  encryptedContent: r.encrypted_content,
  created: r.created,
  ...(r.kind === "edit" || r.kind === "reaction" || r.kind === "pin" ? { kind: r.kind, targetId: r.target ?? "" } : {}),
  ...(r.kind === "reply" ? { kind: r.kind } : {}),
  ...(r.thread ? { thread: r.thread } : {}),
  // A sealed channel's epoch (0, the first, is left out like in live events: the page reads none as 0).
  ...(r.epoch ? { epoch: r.epoch } : {}),
  ...(Array.isArray(r.thread_people) ? { threadPeople: r.thread_people.filter((id) => typeof id === "string") } : {}),
  attachments: r.expand?.file_attachments_via_message?.map(toAttachment) ?? [],
  previews: r.expand?.link_previews_via_message?.map(toPreview) ?? [],
});

const FIELDS = "id,channel,sender,encrypted_content,created,kind,target,thread,epoch";
// Attachments and previews come with their messages in the same query (back-relation expand; the
// related collections' view rules still apply).
const EXPAND = "file_attachments_via_message,link_previews_via_message";
const LIST_FIELDS = `${FIELDS},expand`;

type PageQuery = {
  before?: string;
  beforeId?: string;
  after?: string;
  around?: string;
  limit: number;
  count?: "1";
  epoch?: number;
  /** With `epoch`: that epoch's messages and every later epoch's, in epoch order (a device catching up). */
  andLater?: boolean;
  page?: number;
  profiles?: "1";
};
type Page = MessagePage;

/**
 * One page of a channel's messages, oldest first. `before` pages back in history; `after` returns
 * everything that arrived since a moment (used after every reconnect so nothing is missed). A page of
 * history counts messages only; the edits and reactions of exactly those messages come with it. With
 * `profiles` (a conversation's first page, the unread mentions' scan), the page also names its senders'
 * public profiles, the same answer /api/profiles gives: the page verifies its messages without asking
 * for them afterwards.
 */
export async function listMessages(pb: PocketBase, channelId: string, page: PageQuery): Promise<Page> {
  const list = (filter: string, params: Record<string, unknown>, sort: string, limit: number, number = 1) =>
    pb.collection("messages").getList<MessageRecord>(number, limit, {
      filter: pb.filter(filter, { channel: channelId, ...params }),
      sort,
      fields: LIST_FIELDS,
      expand: EXPAND,
      skipTotal: true,
    });
  try {
    if (page.epoch !== undefined) {
      // A sealed channel's messages of one epoch, edits and reactions included, in the order they were stored.
      const found = page.andLater
        ? await list("channel = {:channel} && epoch >= {:epoch}", { epoch: page.epoch }, "epoch,created,id", page.limit, page.page)
        : await list("channel = {:channel} && epoch = {:epoch}", { epoch: page.epoch }, "created,id", page.limit, page.page);
      const messages = found.items.map(toMessage);
      const senders = [...new Set(messages.map((m) => m.senderId))].slice(0, 100);
      const profiles = page.profiles && senders.length ? { profiles: await listProfiles(pb, senders) } : {};
      return { messages, hasMore: found.items.length === page.limit, ...profiles };
    }
    // A page of history with its edits, reactions, files and previews, or (`after`) everything stored
    // since a moment: one request to our PocketBase's history route (pocketbase/history.go), a constant
    // number of queries whatever the channel's size.
    const found = await pb.send<{
      messages: MessageRecord[];
      hasMore: boolean;
      hasNewer?: boolean;
      totalItems?: number;
      threads?: ThreadSummary[];
      profiles?: { id: string; username?: string; ecdh_public_key: string; rsa_public_key: string; deleted?: boolean }[];
    }>("/api/chat/history", {
      method: "GET",
      query: {
        channel: channelId,
        limit: page.limit,
        ...(page.after
          ? { after: page.after }
          : page.around
            ? { around: page.around }
            : page.before
              ? { before: page.before, ...(page.beforeId ? { beforeId: page.beforeId } : {}) }
              : {}),
        ...(page.count ? { count: "1" } : {}),
        // (its senders' public profiles, in the same request: pocketbase/history_profiles.go)
        ...(page.profiles ? { profiles: "1" } : {}),
      },
    });
    return {
      messages: found.messages.map(toMessage),
      hasMore: found.hasMore,
      ...(found.hasNewer ? { hasNewer: true } : {}),
      threads: found.threads ?? [],
      ...(found.totalItems === undefined ? {} : { totalItems: found.totalItems }),
      ...(found.profiles?.length ? { profiles: found.profiles.map((p) => toPublicProfile(p, p.deleted)) } : {}),
    };
  } catch (error) {
    if (error instanceof Response) throw error;
    failOnOutage(error);
    const status = pbStatus(error);
    if (status === 400) fail(400, "Invalid message page.");
    if (status === 404) fail(404, "That message is not in this conversation.");
    // A session this server still took for signed in that PocketBase no longer accepts (its email or
    // password was just changed, or it was signed out through another web process): 401 and why.
    if (status === 401 || status === 403) {
      await requireLiveSessionAfterRefusal(pb.authStore.token);
      fail(401, SESSION_ENDED_MESSAGE);
    }
    failOnTooMany(error);
    fail(502, "The messages could not be loaded. Please try again.");
  }
}

/**
 * Stores a message (or an edit or a reaction). With a `clientId` (the page's own id for this send) a
 * retry of the same send answers the message already stored, marked `replayed`, instead of storing it twice.
 */
export async function createMessage(
  caller: { token: string; context?: AppLoadContext },
  input: {
    channelId: string;
    senderId: string;
    encryptedContent: string;
    senderPublicKey: string;
    kind?: AnnotationKind | "reply";
    targetId?: string;
    thread?: string;
    clientId?: string;
    epoch?: number;
    mentions?: string[];
  },
): Promise<EncryptedMessage & { replayed?: true }> {
  // answered on the message's relay event when it comes before PocketBase's answer (committed.server.ts)
  const commit = awaitCommit(input.channelId, input.senderId, input.encryptedContent);
  try {
    const created = pocketbasePost(
      `/api/collections/messages/records?fields=${FIELDS}`,
      {
        channel: input.channelId,
        sender: input.senderId,
        encrypted_content: input.encryptedContent,
        sender_public_key: input.senderPublicKey,
        client_id: input.clientId ?? "",
        ...(input.epoch === undefined ? {} : { epoch: input.epoch }),
        ...(input.kind && input.kind !== "reply" ? { kind: input.kind, target: input.targetId } : {}),
        ...(input.kind === "reply" ? { kind: "reply" } : {}),
        ...(input.thread ? { thread: input.thread } : {}),
        ...(input.mentions?.length ? { mentions: input.mentions } : {}),
      },
      caller,
    );
    return toMessage((await Promise.race([created, commit.committed])) as MessageRecord);
  } catch (error) {
    failOnOutage(error);
    const status = pbStatus(error);
    if (status === 429) fail(429, "You are sending messages too quickly. Please wait a moment.");
    if (status === 409) fail(409, "The conversation's keys changed: the message must be encrypted again.");
    const fields = fieldErrors(error);
    if (input.clientId && fields.client_id?.code === "validation_not_unique")
      return storedSend(pocketbase(caller.token, caller.context), input);
    if (status === 400 && Object.keys(fields).length > 0) fail(400, "The message was refused: it is not a valid message envelope.");
    // PocketBase refuses a write its create rule forbids with an empty 400: the membership rule, an edit
    // of someone else's message, or what it answers (its target, its thread) not in the conversation
    if (status === 400 || status === 403 || status === 404) {
      if (!(await isMember(caller, input.channelId, input.senderId))) fail(403, "You are not a member of this conversation.");
      if (input.kind === "edit") fail(403, "Only the sender can edit a message.");
      fail(400, MESSAGE_REFUSED);
    }
    fail(502, "The message could not be stored. Please try again.");
  } finally {
    commit.done();
  }
}

const MESSAGE_REFUSED =
  "The message was refused: what it reacts to, edits, pins or replies to is not in this conversation, or it is not a valid message.";

/** Whether the sender is in the conversation (as PocketBase lets them read their own membership). */
async function isMember(caller: { token: string; context?: AppLoadContext }, channelId: string, userId: string): Promise<boolean> {
  const pb = pocketbase(caller.token, caller.context);
  try {
    await pb
      .collection("channel_members")
      .getFirstListItem(pb.filter("channel = {:channel} && user = {:user}", { channel: channelId, user: userId }), { fields: "id" });
    return true;
  } catch {
    return false;
  }
}

async function storedSend(pb: PocketBase, input: { channelId: string; senderId: string; clientId?: string }) {
  let record: MessageRecord;
  try {
    record = await pb
      .collection("messages")
      .getFirstListItem<MessageRecord>(
        pb.filter("sender = {:sender} && client_id = {:clientId}", { sender: input.senderId, clientId: input.clientId }),
        { fields: FIELDS },
      );
  } catch (error) {
    failOnOutage(error);
    fail(409, "This message id was already used for a message you can no longer see.");
  }
  if (record.channel !== input.channelId) fail(409, "This message id was already used in another conversation.");
  return { ...toMessage(record), replayed: true as const };
}

/** Deletes a message: its sender or the channel's creator (PocketBase's delete rule); its edits and reactions go with it. */
export async function deleteMessage(pb: PocketBase, messageId: string) {
  try {
    await pb.collection("messages").delete(messageId);
  } catch (error) {
    const status = pbStatus(error);
    fail(status === 404 || status === 403 ? 404 : 502, status === 404 || status === 403 ? "Message not found" : "Failed to delete message");
  }
}

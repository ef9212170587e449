import type PocketBase from "pocketbase";
import type { EncryptedMessage } from "~/chat-types";
import { fail } from "./http.server";
import { toAttachment, toPreview, type AttachmentRecord, type PreviewRecord } from "./attachments.server";
import { failOnOutage, fieldErrors } from "./outage.server";
import { pbStatus } from "./pocketbase.server";

type MessageRecord = {
  id: string;
  channel: string;
  sender: string;
  encrypted_content: string;
  created: string;
  expand?: { file_attachments_via_message?: AttachmentRecord[]; link_previews_via_message?: PreviewRecord[] };
};

export const toMessage = (r: MessageRecord): EncryptedMessage => ({
  id: r.id,
  channelId: r.channel,
  senderId: r.sender,
  encryptedContent: r.encrypted_content,
  created: r.created,
  attachments: r.expand?.file_attachments_via_message?.map(toAttachment) ?? [],
  previews: r.expand?.link_previews_via_message?.map(toPreview) ?? [],
});

const FIELDS = "id,channel,sender,encrypted_content,created";
// Attachments and previews come with their messages in the same query (back-relation expand; the
// related collections' view rules still apply).
const EXPAND = "file_attachments_via_message,link_previews_via_message";
const LIST_FIELDS = `${FIELDS},expand`;

/**
 * One page of a channel's messages, oldest first. `before` pages back in history; `after` returns what
 * arrived since a moment (used after every reconnect so nothing is missed).
 */
export async function listMessages(
  pb: PocketBase,
  channelId: string,
  page: { before?: string; after?: string; limit: number },
): Promise<{ messages: EncryptedMessage[]; hasMore: boolean }> {
  const parts = ["channel = {:channel}"];
  if (page.before) parts.push("created < {:before}");
  if (page.after) parts.push("created >= {:after}");
  const filter = pb.filter(parts.join(" && "), { channel: channelId, before: page.before, after: page.after });
  try {
    if (page.after) {
      const list = await pb.collection("messages").getList<MessageRecord>(1, page.limit, {
        filter,
        sort: "created,id",
        fields: LIST_FIELDS,
        expand: EXPAND,
        skipTotal: true,
      });
      return { messages: list.items.map(toMessage), hasMore: list.items.length === page.limit };
    }
    const list = await pb.collection("messages").getList<MessageRecord>(1, page.limit + 1, {
      filter,
      sort: "-created,-id",
      fields: LIST_FIELDS,
      expand: EXPAND,
      skipTotal: true,
    });
    const hasMore = list.items.length > page.limit;
    return { messages: list.items.slice(0, page.limit).reverse().map(toMessage), hasMore };
  } catch (error) {
    failOnOutage(error);
    if (pbStatus(error) === 400) fail(400, "Invalid message page.");
    throw error;
  }
}

/**
 * Stores a message. With a `clientId` (the page's own id for this send) a retry of the same send
 * answers the message already stored, marked `replayed`, instead of storing it twice.
 */
export async function createMessage(
  pb: PocketBase,
  input: { channelId: string; senderId: string; encryptedContent: string; senderPublicKey: string; clientId?: string },
): Promise<EncryptedMessage & { replayed?: true }> {
  try {
    const record = await pb.collection("messages").create<MessageRecord>(
      {
        channel: input.channelId,
        sender: input.senderId,
        encrypted_content: input.encryptedContent,
        sender_public_key: input.senderPublicKey,
        client_id: input.clientId ?? "",
      },
      { fields: FIELDS },
    );
    return toMessage(record);
  } catch (error) {
    failOnOutage(error);
    const status = pbStatus(error);
    if (status === 429) fail(429, "You are sending messages too quickly. Please wait a moment.");
    const fields = fieldErrors(error);
    if (input.clientId && fields.client_id?.code === "validation_not_unique") return storedSend(pb, input);
    if (status === 400 && Object.keys(fields).length > 0) fail(400, "The message was refused: it is not a valid message envelope.");
    // PocketBase refuses a write its create rule forbids with an empty 400; that is the membership rule.
    if (status === 400 || status === 403 || status === 404) fail(403, "You are not a member of this channel.");
    fail(502, "The message could not be stored. Please try again.");
  }
}

async function storedSend(pb: PocketBase, input: { channelId: string; senderId: string; clientId?: string }) {
  let record: MessageRecord;
  try {
    record = await pb
      .collection("messages")
      .getFirstListItem<MessageRecord>(pb.filter("sender = {:sender} && client_id = {:clientId}", { sender: input.senderId, clientId: input.clientId }), { fields: FIELDS });
  } catch (error) {
    failOnOutage(error);
    fail(409, "This message id was already used for a message you can no longer see.");
  }
  if (record.channel !== input.channelId) fail(409, "This message id was already used in another channel.");
  return { ...toMessage(record), replayed: true as const };
}

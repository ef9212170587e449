import type { Channel } from "~/conversation/channels/types";
import type { DecryptedMessage } from "~/conversation/messages/decrypted";
import type { EncryptedMessage } from "~/conversation/messages/types";

/** What stands for such a message, in the conversation and atop its thread. */
export const UNREADABLE_ROOT = "This message was sent before this device joined, so it cannot be read here.";

/**
 * A thread's first message this device cannot open, in a conversation it reads from when it joined (a
 * sealed channel, a direct conversation: its MLS group gives no key to what came before): it stands in
 * the conversation for its replies, which this device can read, with who sent it and when (which the
 * server knows too) and nothing of its content. `isRoot` tells the first messages of threads with replies.
 */
export function unreadableRoot(
  channel: Channel,
  record: EncryptedMessage,
  isRoot: ((id: string) => boolean) | undefined,
  sender: { id: string; username: string },
  userId: string,
): DecryptedMessage | null {
  if (!isRoot?.(record.id) || record.kind || record.thread || !(channel.sealed || channel.direct)) return null;
  return {
    id: record.id,
    channelId: channel.id,
    senderId: sender.id,
    senderUsername: sender.username,
    text: "",
    created: record.created,
    own: sender.id === userId,
    fileHashes: [],
    attachments: [],
    previews: [],
    unreadable: true,
  };
}

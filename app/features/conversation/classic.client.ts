/**
 * A classic channel behind the conversation seam (types.ts): one AES-GCM key from the channel
 * password (features/channels/channels.client.ts) seals every message, file and preview; each message is signed
 * with the sender's identity key and checked against the sender's pinned keys.
 */
import { decryptMessage, deriveCallKey, encryptMessage } from "~/crypto";
import { deviceKeys } from "~/lib/device-keys.client";
import { ChatError, KeysMissingError } from "~/lib/errors";
import type { SessionUser } from "~/lib/session-user";
import { getChannelPassword } from "~/lib/storage.client";
import type { Channel } from "~/features/channels/types";
import { channelCallBase, channelKey } from "~/features/channels/channels.client";
import { rememberForPush } from "~/features/push/learning.client";
import type { ConversationCrypto } from "~/features/conversation/types";

export function classicConversation(user: SessionUser, channel: Channel): ConversationCrypto {
  return {
    facts: { kind: "classic", forwardSecrecy: false, joinedBy: "password", verifiedBy: "signatures" },
    async send(body, post) {
      const keys = await deviceKeys(user.id);
      if (!keys) throw new KeysMissingError();
      const key = await channelKey(channel);
      if (!key) throw new ChatError("Channel password not found");
      return post(await encryptMessage({ key, channelId: channel.id, senderId: user.id, plaintext: body, signingKey: keys.rsaPrivateKey }));
    },
    async open(records, verifyKeyOf) {
      const out = new Map<string, string>();
      const key = await channelKey(channel);
      if (!key) return out;
      await Promise.all(
        records.map(async (m) => {
          const verifyKey = verifyKeyOf(m.senderId);
          if (!verifyKey) return;
          try {
            out.set(
              m.id,
              await decryptMessage({ key, channelId: channel.id, senderId: m.senderId, envelope: m.encryptedContent, verifyKey }),
            );
            rememberForPush(user.id, channel.id, key, m.senderId, verifyKey);
          } catch {
            // not verifiable or not decryptable: left out
          }
        }),
      );
      return out;
    },
    newItemKey: () => Promise.resolve(undefined),
    contentKey: () => channelKey(channel),
    canRead: () => Boolean(getChannelPassword(channel.id)),
    prepare: () => Promise.resolve(),
    changeParticipants: () => Promise.resolve(),
    async callKey(callId) {
      const base = await channelCallBase(channel);
      if (!base) throw new ChatError("Channel password not found");
      return { key: await deriveCallKey(base, callId), epoch: 0 };
    },
    watchKeys: () => () => undefined,
  };
}

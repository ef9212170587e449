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
import type { ConversationCrypto, Opened } from "~/features/conversation/types";
import { firstHolding } from "~/features/pins/sender-keys.client";

/** How many messages are verified and decrypted together (about what a window shows). */
const OPEN_SLICE = 25;

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
    async open(records, keysOf) {
      const out = new Map<string, Opened>();
      const key = await channelKey(channel);
      if (!key) return out;
      const openOne = async (m: (typeof records)[number]) => {
        // not verifiable or not decryptable under any of the sender's keys: left out
        const opened = await firstHolding(keysOf(m.senderId), (verifyKey) =>
          decryptMessage({ key, channelId: channel.id, senderId: m.senderId, envelope: m.encryptedContent, verifyKey }),
        );
        if (!opened) return;
        out.set(m.id, { body: opened.value, previous: opened.previous });
        if (!opened.previous) rememberForPush(user.id, channel.id, key, m.senderId, opened.key);
      };
      // A slice at a time: a long page is never one long task (the page draws and answers in between).
      for (let at = 0; at < records.length; at += OPEN_SLICE) await Promise.all(records.slice(at, at + OPEN_SLICE).map(openOne));
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
    groupKey: () => Promise.reject(new ChatError("A classic channel has no group keys.")),
    watchKeys: () => () => undefined,
  };
}

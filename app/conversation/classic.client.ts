/**
 * A classic channel behind the conversation seam (types.ts): one AES-GCM key from the channel
 * password (features/channels/channels.client.ts) seals every message, file and preview; each message is signed
 * with the sender's identity key and checked against the sender's pinned keys. A channel whose password was
 * changed (ADR 0060) opens what was sent before with the earlier passwords' keys the keyring keeps; what
 * does not open under any key this page has makes it look for a new password once (throttled).
 */
import { decryptMessage, deriveCallKey, encryptMessage } from "~/crypto";
import { deviceKeys } from "~/lib/device-keys.client";
import { ChatError, KeysMissingError } from "~/lib/errors";
import type { SessionUser } from "~/lib/session-user";
import { getChannelPassword } from "~/lib/storage.client";
import type { Channel } from "~/conversation/channels/types";
import { channelCallBase, channelKey, olderChannelKeys, openKeyring } from "~/conversation/channels/secrets.client";
import { emit } from "~/lib/events";
import type { ConversationCrypto, Opened } from "~/conversation/types";
import { firstHolding } from "~/conversation/senders/sender-keys.client";

/** How many messages are verified and decrypted together (about what a window shows). */
const OPEN_SLICE = 25;

/** How a message opened under an earlier password names that password's key for its files and previews. */
const EPOCH_REF = "epoch:";
/** Each channel's last look for a new password because a message did not open: when, and its end. */
const looks = new Map<string, { at: number; done: Promise<void> }>();
const LOOK_AGAIN_MS = 10_000;

/**
 * Whether the channel's key is no longer `before`, after a look for a new password (the keyring and its
 * shares). One look per channel in LOOK_AGAIN_MS: the pages' openings of the same live message (the
 * list, unread counts, notifications) share it, and each answers from the key after it ended, so none
 * of them leaves the message out while another is still looking.
 */
async function newKeyArrived(userId: string, channel: Channel, before: CryptoKey): Promise<boolean> {
  let look = looks.get(channel.id);
  if (!look || Date.now() - look.at >= LOOK_AGAIN_MS) {
    look = { at: Date.now(), done: openKeyring(userId, [channel.id]).catch(() => undefined) };
    looks.set(channel.id, look);
  }
  await look.done;
  return (await channelKey(channel)) !== before;
}

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
      const older = await olderChannelKeys(channel.id);
      const openAll = async (list: typeof records, keys: { key: CryptoKey; epoch: number | null }[]) => {
        const openOne = async (m: (typeof records)[number]) => {
          // not verifiable or not decryptable under any of the sender's keys and the channel's: left out
          for (const { key: channelKey, epoch } of keys) {
            const opened = await firstHolding(keysOf(m.senderId), (verifyKey) =>
              decryptMessage({ key: channelKey, channelId: channel.id, senderId: m.senderId, envelope: m.encryptedContent, verifyKey }),
            );
            if (!opened) continue;
            out.set(m.id, { body: opened.value, previous: opened.previous, ...(epoch === null ? {} : { keyRef: `${EPOCH_REF}${epoch}` }) });
            if (!opened.previous && epoch === null)
              emit("message:opened-classic", {
                userId: user.id,
                channelId: channel.id,
                key: channelKey,
                senderId: m.senderId,
                verifyKey: opened.key,
              });
            return;
          }
        };
        // A slice at a time: a long page is never one long task (the page draws and answers in between).
        for (let at = 0; at < list.length; at += OPEN_SLICE) await Promise.all(list.slice(at, at + OPEN_SLICE).map(openOne));
      };
      await openAll(records, [{ key, epoch: null }, ...older]);
      // sent under a password this page does not have yet (changed a moment ago): looked for once, then opened with it
      const left = records.filter((m) => !out.has(m.id));
      if (left.length > 0 && (await newKeyArrived(user.id, channel, key))) {
        const now = await channelKey(channel);
        if (now) await openAll(left, [{ key: now, epoch: null }, ...(await olderChannelKeys(channel.id))]);
      }
      return out;
    },
    newItemKey: () => Promise.resolve(undefined),
    async contentKey(itemKey) {
      if (!itemKey?.startsWith(EPOCH_REF)) return channelKey(channel);
      const epoch = Number(itemKey.slice(EPOCH_REF.length));
      return (await olderChannelKeys(channel.id)).find((k) => k.epoch === epoch)?.key ?? null;
    },
    canRead: () => Boolean(getChannelPassword(channel.id)),
    prepare: () => Promise.resolve(),
    changeParticipants: () => Promise.resolve(),
    async callKey(callId) {
      const base = await channelCallBase(channel);
      if (!base) throw new ChatError("Channel password not found");
      return { key: await deriveCallKey(base, callId), epoch: 0 };
    },
    async callReady() {
      if (!(await channelCallBase(channel))) throw new ChatError("Channel password not found");
    },
    groupKey: () => Promise.reject(new ChatError("A classic channel has no group keys.")),
    watchKeys: () => () => undefined,
  };
}

import { describe, expect, it, vi } from "vitest";
import type { Channel } from "~/conversation/channels/types";
import type { EncryptedMessage } from "~/conversation/messages/types";
import type { SessionUser } from "~/lib/session-user";

// A classic channel whose password was changed a moment ago (ADR 0060): a page's openings of a message
// sent under the new password (the list, unread counts, notifications open the same live message at
// once) all read it once the page's one look for the new password has ended.
// Stand-in for the keyring and its key shares on the server (secrets.client.ts): the page's channel key,
// replaced by the new password's when a look (openKeyring) ends, 30 ms after it starts.
const keyring = vi.hoisted(() => ({ current: null as CryptoKey | null, next: null as CryptoKey | null, looks: 0 }));
vi.mock("~/conversation/channels/secrets.client", () => ({
  channelKey: () => Promise.resolve(keyring.current),
  olderChannelKeys: () => Promise.resolve([]),
  channelCallBase: () => Promise.resolve(null),
  openKeyring: async () => {
    keyring.looks += 1;
    await new Promise((resolve) => setTimeout(resolve, 30));
    keyring.current = keyring.next;
  },
}));

const { classicConversation } = await import("~/conversation/classic.client");
const { encryptMessage, generateKeyBundle } = await import("~/crypto");

const aesKey = () => crypto.subtle.generateKey({ name: "AES-GCM", length: 256 }, false, ["encrypt", "decrypt"]);
const user = { id: "bob0000000000001", username: "bob" } as SessionUser;
const sender = await generateKeyBundle();
const keysOf = () => [{ key: sender.rsaPublicKey, previous: false }];

async function sealed(id: string, channel: Channel, key: CryptoKey, text: string): Promise<EncryptedMessage> {
  const envelope = await encryptMessage({
    key,
    channelId: channel.id,
    senderId: "alice00000000001",
    plaintext: text,
    signingKey: sender.rsaPrivateKey,
  });
  return { id, channelId: channel.id, senderId: "alice00000000001", encryptedContent: envelope, created: new Date().toISOString() };
}

describe("a classic channel's message under a password the page does not have yet", () => {
  it("is read by every opening at once, after one look for the new password", async () => {
    const channel = { id: "rekeyed000000001", kdfIterations: 600_000 } as Channel;
    keyring.current = await aesKey();
    keyring.next = await aesKey();
    keyring.looks = 0;
    const record = await sealed("message000000001", channel, keyring.next, "sent after the change");
    const conversation = classicConversation(user, channel);
    const openings = await Promise.all([1, 2, 3].map(() => conversation.open([record], keysOf)));
    for (const opened of openings) expect(opened.get(record.id)?.body).toBe("sent after the change");
    expect(keyring.looks).toBe(1);
  });

  it("looks again only after the interval when a look found nothing new", async () => {
    const channel = { id: "rekeyed000000002", kdfIterations: 600_000 } as Channel;
    const unknown = await aesKey();
    keyring.current = await aesKey();
    keyring.next = keyring.current;
    keyring.looks = 0;
    const conversation = classicConversation(user, channel);
    const first = await conversation.open([await sealed("message000000002", channel, unknown, "one")], keysOf);
    const second = await conversation.open([await sealed("message000000003", channel, unknown, "two")], keysOf);
    expect(first.size + second.size).toBe(0);
    expect(keyring.looks).toBe(1);
  });
});

// A message its sender keeps in another member's archive (app/crypto/gift.ts, ADR 0099): only that
// member opens it, and only for the member, conversation and message it was sealed for.
import { beforeAll, describe, expect, it } from "vitest";
import { generateKeyBundle, openGift, sealGift, type KeyBundle } from "../../app/crypto";
import { base64UrlDecode, base64UrlEncode } from "../../app/crypto/bytes";

let member: KeyBundle;
let other: KeyBundle;
beforeAll(async () => {
  [member, other] = await Promise.all([generateKeyBundle(), generateKeyBundle()]);
});

const context = { memberId: "memberbbbbbbbbb", channelId: "9ee09a37-fac9-4094-8afa-e0f62893886b", messageId: "messageaaaaaaaa" };
const plaintext = JSON.stringify({ b: "welcome aboard, bob", s: "c2lnbmF0dXJl" });
const seal = () => sealGift({ ...context, memberPublicKey: member.ecdhPublicKey, plaintext });
const open = (data: string, overrides: Partial<Parameters<typeof openGift>[0]> = {}) =>
  openGift({ ...context, ecdhPrivateKey: member.ecdhPrivateKey, data, ...overrides });

describe("messages kept for another member", () => {
  it("the member opens what the sender sealed for them, each entry under a key of its own", async () => {
    const [first, second] = await Promise.all([seal(), seal()]);
    await expect(open(first)).resolves.toBe(plaintext);
    await expect(open(second)).resolves.toBe(plaintext);
    expect(first).toMatch(/^[A-Za-z0-9_-]+$/);
    // a fresh key pair each time: neither the key part nor the ciphertext repeats
    expect(first.slice(0, 130)).not.toBe(second.slice(0, 130));
    expect(first).not.toContain(base64UrlEncode(new TextEncoder().encode("welcome")));
  });

  it("refuses another member's key, another member, conversation or message, and altered or malformed data", async () => {
    const data = await seal();
    await expect(open(data, { ecdhPrivateKey: other.ecdhPrivateKey })).rejects.toThrow();
    await expect(open(data, { memberId: "memberccccccccc" })).rejects.toThrow();
    await expect(open(data, { channelId: "0ee09a37-fac9-4094-8afa-e0f62893886b" })).rejects.toThrow();
    await expect(open(data, { messageId: "messagebbbbbbbb" })).rejects.toThrow();
    const bytes = base64UrlDecode(data);
    bytes[bytes.length - 1] ^= 1;
    await expect(open(base64UrlEncode(bytes))).rejects.toThrow();
    const key = base64UrlDecode(data);
    key[10] ^= 1;
    await expect(open(base64UrlEncode(key))).rejects.toThrow();
    await expect(open("AAAA")).rejects.toThrow("openGift: malformed entry");
    await expect(open(data.slice(0, 129))).rejects.toThrow("openGift: malformed entry");
  });
});

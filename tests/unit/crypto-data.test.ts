/**
 * Part 1: round trips of every function pair of the crypto library, through its public face only:
 * channel secrets and invites, messages, bytes and text, and the random helpers.
 */
import { pbkdf2Sync } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import {
  CryptoError,
  decryptBytes,
  decryptInvitePassword,
  decryptMessage,
  decryptText,
  channelSecretsFromMaster,
  deriveChannelMaster,
  deriveChannelSecrets,
  encryptBytes,
  encryptInvitePassword,
  encryptMessage,
  encryptText,
  exportPublicKey,
  generateKeyBundle,
  importRsaPublicKey,
  randomId,
  randomUuid,
  sha256Base64,
  type KeyBundle,
} from "../../app/crypto";
import { FAST_ITERATIONS } from "./crypto-helpers";

const subtle = crypto.subtle;

let alice: KeyBundle;

beforeAll(async () => {
  alice = await generateKeyBundle();
});

describe("channels and invites", () => {
  const channelId = "6f1c2d3e-4b5a-4978-8a6b-5c4d3e2f1a0b";

  it("deriveChannelSecrets is deterministic; ids and passwords separate verifiers", async () => {
    const a = await deriveChannelSecrets("team pw", channelId, FAST_ITERATIONS);
    const b = await deriveChannelSecrets("team pw", channelId, FAST_ITERATIONS);
    const otherPw = await deriveChannelSecrets("team pw!", channelId, FAST_ITERATIONS);
    const otherId = await deriveChannelSecrets("team pw", "7f1c2d3e-4b5a-4978-8a6b-5c4d3e2f1a0b", FAST_ITERATIONS);
    expect(a.verifier).toBe(b.verifier);
    expect(a.verifier).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(new Set([a.verifier, otherPw.verifier, otherId.verifier]).size).toBe(3);
    expect(a.key.extractable).toBe(false);
    expect(a.key.algorithm).toMatchObject({ name: "AES-GCM", length: 256 });
    const ct = await encryptBytes(a.key, new Uint8Array([9, 8, 7]));
    expect(Array.from(await decryptBytes(b.key, ct))).toEqual([9, 8, 7]);
    await expect(decryptBytes(otherPw.key, ct)).rejects.toThrow("decryptBytes: authentication failed");
  });

  it("the channel key and the verifier are independent outputs", async () => {
    const { key, verifier } = await deriveChannelSecrets("team pw", channelId, FAST_ITERATIONS);
    const verifierAsKey = await subtle.importKey("raw", Buffer.from(verifier, "base64url"), "AES-GCM", false, ["decrypt"]);
    const ct = await encryptBytes(key, new Uint8Array(4));
    await expect(decryptBytes(verifierAsKey, ct)).rejects.toThrow("decryptBytes: authentication failed");
  });

  it("the channel master (kept in the keyring, ADR 35) gives the same key and verifier as the password, without PBKDF2", async () => {
    const master = await deriveChannelMaster("team pw", channelId, FAST_ITERATIONS);
    expect(Buffer.from(master).equals(pbkdf2Sync("team pw", channelId, FAST_ITERATIONS, 32, "sha256"))).toBe(true);
    const fromMaster = await channelSecretsFromMaster(master);
    const fromPassword = await deriveChannelSecrets("team pw", channelId, FAST_ITERATIONS);
    expect(fromMaster.verifier).toBe(fromPassword.verifier);
    expect(fromMaster.key.extractable).toBe(false);
    expect(fromMaster.callBase.extractable).toBe(false);
    const ct = await encryptBytes(fromPassword.key, new Uint8Array([1, 2, 3]));
    expect(Array.from(await decryptBytes(fromMaster.key, ct))).toEqual([1, 2, 3]);
    // a wrong master is another key: nothing opens, as with a wrong password
    const wrong = await channelSecretsFromMaster(new Uint8Array(32).fill(7));
    await expect(decryptBytes(wrong.key, ct)).rejects.toThrow("decryptBytes: authentication failed");
    await expect(channelSecretsFromMaster(master.slice(0, 31))).rejects.toThrow("channelSecretsFromMaster: master must be 32 bytes");
  });

  it("encryptInvitePassword / decryptInvitePassword round trip", async () => {
    const blob = await encryptInvitePassword(channelId, "correct horse ✓");
    expect(blob).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(await decryptInvitePassword(channelId, blob)).toBe("correct horse ✓");
    expect(await encryptInvitePassword(channelId, "correct horse ✓")).not.toBe(blob);
  });
});

describe("messages", () => {
  const channelId = "6f1c2d3e-4b5a-4978-8a6b-5c4d3e2f1a0b";
  const senderId = "alice1234567890";

  it("encryptMessage / decryptMessage round trip with the sender's profile key", async () => {
    const { key } = await deriveChannelSecrets("team pw", channelId, FAST_ITERATIONS);
    const envelope = await encryptMessage({
      key,
      channelId,
      senderId,
      plaintext: "Hi @bob, see you at 10:00",
      signingKey: alice.rsaPrivateKey,
    });
    const parsed = JSON.parse(envelope);
    expect(Object.keys(parsed)).toEqual(["v", "iv", "ct", "sig"]);
    expect(parsed.v).toBe(1);
    expect(Buffer.from(parsed.iv, "base64url")).toHaveLength(12);
    expect(Buffer.from(parsed.sig, "base64url")).toHaveLength(256);
    // The receiver has the sender's key only as the SPKI string from the profile.
    const verifyKey = await importRsaPublicKey(await exportPublicKey(alice.rsaPublicKey));
    const { key: receiverKey } = await deriveChannelSecrets("team pw", channelId, FAST_ITERATIONS);
    expect(await decryptMessage({ key: receiverKey, channelId, senderId, envelope, verifyKey })).toBe("Hi @bob, see you at 10:00");
  });

  it("the same message encrypts differently each time", async () => {
    const { key } = await deriveChannelSecrets("team pw", channelId, FAST_ITERATIONS);
    const p = { key, channelId, senderId, plaintext: "same", signingKey: alice.rsaPrivateKey };
    const [e1, e2] = await Promise.all([encryptMessage(p), encryptMessage(p)]);
    expect(JSON.parse(e1).iv).not.toBe(JSON.parse(e2).iv);
    expect(JSON.parse(e1).ct).not.toBe(JSON.parse(e2).ct);
  });
});

describe("generic bytes and text", () => {
  it("encryptBytes / decryptBytes round trip with and without aad", async () => {
    const key = await subtle.generateKey({ name: "AES-GCM", length: 256 }, false, ["encrypt", "decrypt"]);
    const data = crypto.getRandomValues(new Uint8Array(1000));
    const out = await encryptBytes(key, data);
    expect(out.length).toBe(12 + 1000 + 16);
    expect(Array.from(await decryptBytes(key, out))).toEqual(Array.from(data));
    const withAad = await encryptBytes(key, data, "file:abc");
    expect(Array.from(await decryptBytes(key, withAad, "file:abc"))).toEqual(Array.from(data));
    // A large file (spans several getRandomValues calls elsewhere; here just size).
    const big = new Uint8Array(3 * 1024 * 1024).fill(7);
    expect((await decryptBytes(key, await encryptBytes(key, big))).length).toBe(big.length);
  });

  it("encryptBytes accepts any Uint8Array view, including Buffer and subarrays", async () => {
    const key = await subtle.generateKey({ name: "AES-GCM", length: 256 }, false, ["encrypt", "decrypt"]);
    const backing = new Uint8Array([0, 1, 2, 3, 4, 5, 6, 7]);
    const out = await encryptBytes(key, backing.subarray(2, 5));
    expect(Array.from(await decryptBytes(key, out))).toEqual([2, 3, 4]);
    const fromBuffer = await encryptBytes(key, Buffer.from("abc"));
    expect(new TextDecoder().decode(await decryptBytes(key, fromBuffer))).toBe("abc");
  });

  it("encryptText / decryptText round trip", async () => {
    const key = await subtle.generateKey({ name: "AES-GCM", length: 256 }, false, ["encrypt", "decrypt"]);
    const ct = await encryptText(key, "préview title 📰", "preview:title");
    expect(ct).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(await decryptText(key, ct, "preview:title")).toBe("préview title 📰");
  });

  it("sha256Base64 matches node:crypto", async () => {
    const { createHash } = await import("node:crypto");
    for (const text of ["", "abc", "pässwörd 🔑"]) {
      expect(await sha256Base64(text)).toBe(createHash("sha256").update(text, "utf8").digest("base64"));
    }
  });
});

describe("random helpers", () => {
  it("randomUuid returns distinct v4 UUIDs", () => {
    const a = randomUuid();
    expect(a).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(randomUuid()).not.toBe(a);
  });

  it("randomId makes PocketBase-style ids", () => {
    const id = randomId();
    expect(id).toMatch(/^[a-z0-9]{15}$/);
    expect(randomId(40)).toMatch(/^[a-z0-9]{40}$/);
    expect(randomId(1)).toMatch(/^[a-z0-9]$/);
    const ids = new Set(Array.from({ length: 1000 }, () => randomId()));
    expect(ids.size).toBe(1000);
    expect(() => randomId(0)).toThrow(CryptoError);
    expect(() => randomId(1.5)).toThrow("randomId: length must be a positive integer");
  });

  it("randomId uses every character of [a-z0-9] roughly uniformly", () => {
    const counts = new Map<string, number>();
    const sample = randomId(36_000);
    for (const ch of sample) counts.set(ch, (counts.get(ch) ?? 0) + 1);
    expect(counts.size).toBe(36);
    // Expected 1000 each; a chi-square bound far from any plausible random failure.
    let chi2 = 0;
    for (const n of counts.values()) chi2 += (n - 1000) ** 2 / 1000;
    expect(chi2).toBeLessThan(100); // 35 degrees of freedom: p(chi2 > 100) < 1e-7
  });
});

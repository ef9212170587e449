/**
 * Part 1: round trips of every function pair of the crypto library, through its public face only.
 */
import { beforeAll, describe, expect, it } from "vitest";
import {
  CryptoError,
  decryptBytes,
  decryptInvitePassword,
  decryptMessage,
  decryptText,
  deriveAccountSecrets,
  deriveChannelSecrets,
  deriveContactsKey,
  deriveWrapKey,
  encryptBytes,
  encryptInvitePassword,
  encryptMessage,
  encryptText,
  exportKeyBundle,
  exportPublicKey,
  generateKeyBundle,
  importEcdhPublicKey,
  importKeyBundle,
  importRsaPublicKey,
  normalizeEmail,
  randomId,
  randomUuid,
  sha256Base64,
  unwrapPrivateKey,
  wrapPrivateKey,
  type KeyBundle,
} from "../../app/crypto";
import { FAST_ITERATIONS } from "./crypto-helpers";

const subtle = crypto.subtle;
const PSS = { name: "RSA-PSS", saltLength: 32 } as const;

let alice: KeyBundle;
let bob: KeyBundle;

beforeAll(async () => {
  [alice, bob] = await Promise.all([generateKeyBundle(), generateKeyBundle()]);
});

async function signVerifies(signer: CryptoKey, verifier: CryptoKey): Promise<boolean> {
  const data = new TextEncoder().encode("round trip");
  const sig = await subtle.sign(PSS, signer, data);
  return subtle.verify(PSS, verifier, sig, data);
}

/** JWK with key_ops sorted: the order of usages is not significant. */
function canonical<T>(value: T): T {
  return JSON.parse(JSON.stringify(value), (k, v) => (k === "key_ops" && Array.isArray(v) ? [...v].sort() : v));
}

async function sharedBits(priv: CryptoKey, pub: CryptoKey): Promise<string> {
  return Buffer.from(await subtle.deriveBits({ name: "ECDH", public: pub }, priv, 384)).toString("hex");
}

describe("accounts", () => {
  it("normalizeEmail trims and lower-cases", () => {
    expect(normalizeEmail("  Alice.Smith@Example.COM\t")).toBe("alice.smith@example.com");
    expect(normalizeEmail("bob@example.org")).toBe("bob@example.org");
  });

  it("deriveAccountSecrets is deterministic and depends on normalized email and password", async () => {
    const a = await deriveAccountSecrets("hunter22", "Alice@Example.com ", FAST_ITERATIONS);
    const b = await deriveAccountSecrets("hunter22", "alice@example.com", FAST_ITERATIONS);
    const c = await deriveAccountSecrets("hunter23", "alice@example.com", FAST_ITERATIONS);
    const d = await deriveAccountSecrets("hunter22", "alice2@example.com", FAST_ITERATIONS);
    const e = await deriveAccountSecrets("hunter22", "alice@example.com", FAST_ITERATIONS + 1);
    expect(a.loginSecret).toBe(b.loginSecret);
    expect(a.loginSecret).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(new Set([a.loginSecret, c.loginSecret, d.loginSecret, e.loginSecret]).size).toBe(4);
    expect(a.loginSecret).not.toContain("hunter22");
  });

  it("master is a non-extractable HKDF key", async () => {
    const { master } = await deriveAccountSecrets("hunter22", "alice@example.com", FAST_ITERATIONS);
    expect(master.algorithm.name).toBe("HKDF");
    expect(master.extractable).toBe(false);
    await expect(subtle.exportKey("raw", master)).rejects.toThrow();
  });

  it("deriveWrapKey is deterministic per master and user id, non-extractable AES-GCM-256", async () => {
    const { master } = await deriveAccountSecrets("hunter22", "alice@example.com", FAST_ITERATIONS);
    const { master: master2 } = await deriveAccountSecrets("hunter22", "alice@example.com", FAST_ITERATIONS);
    const k1 = await deriveWrapKey(master, "user1");
    const k2 = await deriveWrapKey(master2, "user1");
    expect(k1.extractable).toBe(false);
    expect(k1.algorithm).toMatchObject({ name: "AES-GCM", length: 256 });
    const ct = await encryptBytes(k1, new Uint8Array([1, 2, 3]));
    expect(Array.from(await decryptBytes(k2, ct))).toEqual([1, 2, 3]);
    const other = await deriveWrapKey(master, "user2");
    await expect(decryptBytes(other, ct)).rejects.toThrow("decryptBytes: authentication failed");
  });
});

describe("identity keys", () => {
  it("generateKeyBundle makes ECDH P-384 and RSA-PSS 2048 / SHA-256 pairs", () => {
    expect(alice.ecdhPrivateKey.algorithm).toMatchObject({ name: "ECDH", namedCurve: "P-384" });
    expect(alice.ecdhPrivateKey.extractable).toBe(true);
    expect([...alice.ecdhPrivateKey.usages].sort()).toEqual(["deriveBits", "deriveKey"]);
    expect(alice.ecdhPublicKey.type).toBe("public");
    const rsa = alice.rsaPrivateKey.algorithm as RsaHashedKeyAlgorithm;
    expect(rsa.name).toBe("RSA-PSS");
    expect(rsa.modulusLength).toBe(2048);
    expect(Array.from(rsa.publicExponent)).toEqual([1, 0, 1]);
    expect(rsa.hash.name).toBe("SHA-256");
    expect(alice.rsaPrivateKey.extractable).toBe(true);
    expect(alice.rsaPrivateKey.usages).toEqual(["sign"]);
    expect(alice.rsaPublicKey.usages).toEqual(["verify"]);
  });

  it("exportKeyBundle / importKeyBundle keeps signing and key agreement working (through JSON)", async () => {
    const stored = await exportKeyBundle(alice);
    expect(stored.ecdhPrivateKey).toMatchObject({ kty: "EC", crv: "P-384" });
    expect(stored.rsaPrivateKey).toMatchObject({ kty: "RSA" });
    expect(stored.ecdhPublicKey).toMatch(/^[A-Za-z0-9+/]+=*$/);
    const restored = await importKeyBundle(JSON.parse(JSON.stringify(stored)));
    expect(await signVerifies(restored.rsaPrivateKey, alice.rsaPublicKey)).toBe(true);
    expect(await signVerifies(alice.rsaPrivateKey, restored.rsaPublicKey)).toBe(true);
    expect(await sharedBits(restored.ecdhPrivateKey, bob.ecdhPublicKey)).toBe(await sharedBits(bob.ecdhPrivateKey, alice.ecdhPublicKey));
    expect(await sharedBits(restored.ecdhPrivateKey, restored.ecdhPublicKey)).toBe(
      await sharedBits(alice.ecdhPrivateKey, alice.ecdhPublicKey),
    );
    // Stable under a second export.
    expect(canonical(await exportKeyBundle(restored))).toEqual(canonical(stored));
  });

  it("exportPublicKey / importRsaPublicKey / importEcdhPublicKey round trip", async () => {
    const rsaSpki = await exportPublicKey(alice.rsaPublicKey);
    const ecdhSpki = await exportPublicKey(alice.ecdhPublicKey);
    const rsaPub = await importRsaPublicKey(rsaSpki);
    const ecdhPub = await importEcdhPublicKey(ecdhSpki);
    expect(rsaPub.usages).toEqual(["verify"]);
    expect(await signVerifies(alice.rsaPrivateKey, rsaPub)).toBe(true);
    expect(await sharedBits(bob.ecdhPrivateKey, ecdhPub)).toBe(await sharedBits(alice.ecdhPrivateKey, bob.ecdhPublicKey));
    expect(await exportPublicKey(rsaPub)).toBe(rsaSpki);
    expect(await exportPublicKey(ecdhPub)).toBe(ecdhSpki);
  });

  it("wrapPrivateKey / unwrapPrivateKey round trip for both kinds", async () => {
    const { master } = await deriveAccountSecrets("hunter22", "alice@example.com", FAST_ITERATIONS);
    const wrapKey = await deriveWrapKey(master, "alice1234567890");
    const ecdhEnv = await wrapPrivateKey(alice.ecdhPrivateKey, wrapKey, "ecdh", "alice1234567890");
    const rsaEnv = await wrapPrivateKey(alice.rsaPrivateKey, wrapKey, "rsa", "alice1234567890");
    for (const env of [ecdhEnv, rsaEnv]) expect(env).toMatch(/^v1\.[A-Za-z0-9_-]{16}\.[A-Za-z0-9_-]+$/);
    // Fresh IV each time.
    expect(await wrapPrivateKey(alice.ecdhPrivateKey, wrapKey, "ecdh", "alice1234567890")).not.toBe(ecdhEnv);

    // A later session re-derives the wrap key from the password.
    const { master: again } = await deriveAccountSecrets("hunter22", " ALICE@example.com", FAST_ITERATIONS);
    const wrapKey2 = await deriveWrapKey(again, "alice1234567890");
    const ecdh = await unwrapPrivateKey(ecdhEnv, wrapKey2, "ecdh", "alice1234567890");
    const rsa = await unwrapPrivateKey(rsaEnv, wrapKey2, "rsa", "alice1234567890");
    expect(ecdh.extractable).toBe(true);
    expect(rsa.extractable).toBe(true);
    expect(await signVerifies(rsa, alice.rsaPublicKey)).toBe(true);
    expect(await sharedBits(ecdh, bob.ecdhPublicKey)).toBe(await sharedBits(alice.ecdhPrivateKey, bob.ecdhPublicKey));
    expect(canonical(await subtle.exportKey("jwk", ecdh))).toEqual(canonical(await subtle.exportKey("jwk", alice.ecdhPrivateKey)));
    expect(canonical(await subtle.exportKey("jwk", rsa))).toEqual(canonical(await subtle.exportKey("jwk", alice.rsaPrivateKey)));
    // Unwrapped keys can be stored again.
    const stored = await exportKeyBundle({ ...alice, ecdhPrivateKey: ecdh, rsaPrivateKey: rsa });
    expect(canonical(stored)).toEqual(canonical(await exportKeyBundle(alice)));
  });

  it("deriveContactsKey is the same for the same user and differs between users", async () => {
    const stored = await exportKeyBundle(alice);
    const restored = await importKeyBundle(stored);
    const k1 = await deriveContactsKey(alice.ecdhPrivateKey, alice.ecdhPublicKey);
    const k2 = await deriveContactsKey(restored.ecdhPrivateKey, await importEcdhPublicKey(stored.ecdhPublicKey));
    expect(k1.extractable).toBe(false);
    expect(k1.algorithm).toMatchObject({ name: "AES-GCM", length: 256 });
    const ct = await encryptText(k1, "Alice +1234567890", "contact");
    expect(await decryptText(k2, ct, "contact")).toBe("Alice +1234567890");
    const kb = await deriveContactsKey(bob.ecdhPrivateKey, bob.ecdhPublicKey);
    await expect(decryptText(kb, ct, "contact")).rejects.toThrow("decryptText: authentication failed");
  });
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

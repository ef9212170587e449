/**
 * Part 1: round trips of every function pair of the crypto library, through its public face only:
 * account secrets and identity keys.
 */
import { beforeAll, describe, expect, it } from "vitest";
import {
  decryptBytes,
  decryptText,
  deriveAccountSecrets,
  deriveContactsKey,
  deriveWrapKey,
  encryptBytes,
  encryptText,
  exportKeyBundle,
  exportPublicKey,
  generateKeyBundle,
  importEcdhPublicKey,
  importKeyBundle,
  importRsaPublicKey,
  normalizeEmail,
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

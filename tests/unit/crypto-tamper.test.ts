/**
 * Part 3: tampering. Every altered byte, every context mismatch and every wrong key must be rejected
 * with its exact CryptoError message.
 */
import { beforeAll, describe, expect, it } from "vitest";
import {
  decryptBytes,
  decryptInvitePassword,
  decryptMessage,
  decryptText,
  deriveAccountSecrets,
  deriveChannelSecrets,
  deriveWrapKey,
  encryptBytes,
  encryptInvitePassword,
  encryptMessage,
  encryptText,
  generateKeyBundle,
  importKeyBundle,
  exportKeyBundle,
  unwrapPrivateKey,
  wrapPrivateKey,
  type KeyBundle,
} from "../../app/crypto";
import { FAST_ITERATIONS, b64uToBytes, bytesToB64u, expectCryptoError, flipB64u, flipByte } from "./crypto-helpers";

const channelId = "0b6f2a4e-8f0c-4c1e-9a57-3d2f1e0c9b8a";
const otherChannelId = "1b6f2a4e-8f0c-4c1e-9a57-3d2f1e0c9b8a";
const aliceId = "alice1234567890";
const bobId = "bob123456789012";

let alice: KeyBundle;
let bob: KeyBundle;
let channelKey: CryptoKey;
let otherChannelKey: CryptoKey;
let envelope: string;

beforeAll(async () => {
  [alice, bob] = await Promise.all([generateKeyBundle(), generateKeyBundle()]);
  channelKey = (await deriveChannelSecrets("team pw", channelId, FAST_ITERATIONS)).key;
  otherChannelKey = (await deriveChannelSecrets("team pw", otherChannelId, FAST_ITERATIONS)).key;
  envelope = await encryptMessage({
    key: channelKey,
    channelId,
    senderId: aliceId,
    plaintext: "the launch is on friday",
    signingKey: alice.rsaPrivateKey,
  });
});

function withField(env: string, field: string, value: unknown): string {
  return JSON.stringify({ ...JSON.parse(env), [field]: value });
}

function decrypt(env: string, over: Partial<{ key: CryptoKey; channelId: string; senderId: string; verifyKey: CryptoKey }> = {}) {
  return decryptMessage({ key: channelKey, channelId, senderId: aliceId, envelope: env, verifyKey: alice.rsaPublicKey, ...over });
}

/** Re-signs iv || ct with `signer` for the given context, as an insider holding a signing key could. */
async function resign(env: string, signer: CryptoKey, ctxChannel: string, ctxSender: string): Promise<string> {
  const { iv, ct } = JSON.parse(env);
  const data = new Uint8Array([
    ...new TextEncoder().encode(`chatcrypt:msg:v1:${ctxChannel}:${ctxSender}:`),
    ...b64uToBytes(iv),
    ...b64uToBytes(ct),
  ]);
  const sig = new Uint8Array(await crypto.subtle.sign({ name: "RSA-PSS", saltLength: 32 }, signer, data));
  return withField(env, "sig", bytesToB64u(sig));
}

describe("message envelopes", () => {
  it("the untouched envelope decrypts", async () => {
    expect(await decrypt(envelope)).toBe("the launch is on friday");
  });

  it.each(["iv", "ct", "sig"])("one flipped byte in %s (first, middle, last) is a bad signature", async (field) => {
    const value: string = JSON.parse(envelope)[field];
    const length = b64uToBytes(value).length;
    for (const index of [0, Math.floor(length / 2), length - 1]) {
      await expectCryptoError(decrypt(withField(envelope, field, flipB64u(value, index))), "decryptMessage: bad signature");
    }
  });

  it("a flipped ciphertext byte re-signed by the sender still fails authentication", async () => {
    const tampered = withField(envelope, "ct", flipB64u(JSON.parse(envelope).ct, 3));
    await expectCryptoError(
      decrypt(await resign(tampered, alice.rsaPrivateKey, channelId, aliceId)),
      "decryptMessage: authentication failed",
    );
  });

  it("a flipped IV byte re-signed by the sender still fails authentication", async () => {
    const tampered = withField(envelope, "iv", flipB64u(JSON.parse(envelope).iv, 0));
    await expectCryptoError(
      decrypt(await resign(tampered, alice.rsaPrivateKey, channelId, aliceId)),
      "decryptMessage: authentication failed",
    );
  });

  it("moved to another channel: rejected by the signature", async () => {
    await expectCryptoError(decrypt(envelope, { channelId: otherChannelId }), "decryptMessage: bad signature");
    await expectCryptoError(decrypt(envelope, { channelId: otherChannelId, key: otherChannelKey }), "decryptMessage: bad signature");
  });

  it("attributed to another sender: rejected by the signature", async () => {
    await expectCryptoError(decrypt(envelope, { senderId: bobId }), "decryptMessage: bad signature");
    await expectCryptoError(decrypt(envelope, { senderId: bobId, verifyKey: bob.rsaPublicKey }), "decryptMessage: bad signature");
  });

  it("AAD binds channel and sender even when the signature is valid for the new context", async () => {
    // The sender re-signs her own ciphertext for another channel / as another user id: the AES-GCM
    // associated data still names the original channel and sender.
    const movedChannel = await resign(envelope, alice.rsaPrivateKey, otherChannelId, aliceId);
    await expectCryptoError(decrypt(movedChannel, { channelId: otherChannelId }), "decryptMessage: authentication failed");
    const movedSender = await resign(envelope, bob.rsaPrivateKey, channelId, bobId);
    await expectCryptoError(
      decrypt(movedSender, { senderId: bobId, verifyKey: bob.rsaPublicKey }),
      "decryptMessage: authentication failed",
    );
  });

  it("a message signed by another user's key is a bad signature", async () => {
    const forged = await encryptMessage({
      key: channelKey,
      channelId,
      senderId: aliceId,
      plaintext: "transfer the funds",
      signingKey: bob.rsaPrivateKey,
    });
    await expectCryptoError(decrypt(forged), "decryptMessage: bad signature");
    // Swapping in another member's signature on Alice's ciphertext fails too.
    await expectCryptoError(decrypt(withField(envelope, "sig", JSON.parse(forged).sig)), "decryptMessage: bad signature");
  });

  it("the signature is checked before decryption", async () => {
    // Wrong channel key AND wrong signer: the signature failure is reported.
    const forged = await encryptMessage({
      key: otherChannelKey,
      channelId,
      senderId: aliceId,
      plaintext: "x",
      signingKey: bob.rsaPrivateKey,
    });
    await expectCryptoError(decrypt(forged), "decryptMessage: bad signature");
  });

  it("a wrong channel key with a valid signature fails authentication", async () => {
    await expectCryptoError(decrypt(envelope, { key: otherChannelKey }), "decryptMessage: authentication failed");
  });

  it("swapping ciphertexts between two valid messages is rejected", async () => {
    const second = await encryptMessage({
      key: channelKey,
      channelId,
      senderId: aliceId,
      plaintext: "another",
      signingKey: alice.rsaPrivateKey,
    });
    await expectCryptoError(decrypt(withField(envelope, "ct", JSON.parse(second).ct)), "decryptMessage: bad signature");
    await expectCryptoError(decrypt(withField(envelope, "iv", JSON.parse(second).iv)), "decryptMessage: bad signature");
  });
});

describe("wrapped private keys", () => {
  let wrapKey: CryptoKey;
  let ecdhEnv: string;
  let rsaEnv: string;

  beforeAll(async () => {
    const { master } = await deriveAccountSecrets("hunter22", "alice@example.com", FAST_ITERATIONS);
    wrapKey = await deriveWrapKey(master, aliceId);
    ecdhEnv = await wrapPrivateKey(alice.ecdhPrivateKey, wrapKey, "ecdh", aliceId);
    rsaEnv = await wrapPrivateKey(alice.rsaPrivateKey, wrapKey, "rsa", aliceId);
  });

  function flipPart(env: string, part: 1 | 2, index: number): string {
    const parts = env.split(".");
    parts[part] = flipB64u(parts[part], index);
    return parts.join(".");
  }

  it.each([
    ["ecdh", 1],
    ["ecdh", 2],
    ["rsa", 1],
    ["rsa", 2],
  ] as const)("%s envelope: one flipped byte in part %i fails authentication", async (kind, part) => {
    const env = kind === "ecdh" ? ecdhEnv : rsaEnv;
    for (const index of [0, 5, -1]) {
      await expectCryptoError(
        unwrapPrivateKey(flipPart(env, part, index), wrapKey, kind, aliceId),
        "unwrapPrivateKey: authentication failed",
      );
    }
  });

  it("a wrong password fails authentication", async () => {
    const { master } = await deriveAccountSecrets("hunter23", "alice@example.com", FAST_ITERATIONS);
    const wrongKey = await deriveWrapKey(master, aliceId);
    await expectCryptoError(unwrapPrivateKey(ecdhEnv, wrongKey, "ecdh", aliceId), "unwrapPrivateKey: authentication failed");
    await expectCryptoError(unwrapPrivateKey(rsaEnv, wrongKey, "rsa", aliceId), "unwrapPrivateKey: authentication failed");
  });

  it("a wrong user id (wrap key or associated data) fails authentication", async () => {
    const { master } = await deriveAccountSecrets("hunter22", "alice@example.com", FAST_ITERATIONS);
    await expectCryptoError(
      unwrapPrivateKey(ecdhEnv, await deriveWrapKey(master, bobId), "ecdh", bobId),
      "unwrapPrivateKey: authentication failed",
    );
    await expectCryptoError(unwrapPrivateKey(ecdhEnv, wrapKey, "ecdh", bobId), "unwrapPrivateKey: authentication failed");
  });

  it("swapping the two wrapped keys fails authentication", async () => {
    await expectCryptoError(unwrapPrivateKey(ecdhEnv, wrapKey, "rsa", aliceId), "unwrapPrivateKey: authentication failed");
    await expectCryptoError(unwrapPrivateKey(rsaEnv, wrapKey, "ecdh", aliceId), "unwrapPrivateKey: authentication failed");
  });

  it("a truncated ciphertext fails", async () => {
    const [v, iv, ct] = ecdhEnv.split(".");
    const shorter = bytesToB64u(b64uToBytes(ct).slice(0, -1));
    await expectCryptoError(unwrapPrivateKey(`${v}.${iv}.${shorter}`, wrapKey, "ecdh", aliceId), "unwrapPrivateKey: authentication failed");
  });
});

describe("generic bytes, text and invites", () => {
  let key: CryptoKey;
  let otherKey: CryptoKey;
  beforeAll(async () => {
    key = await crypto.subtle.generateKey({ name: "AES-GCM", length: 256 }, false, ["encrypt", "decrypt"]);
    otherKey = await crypto.subtle.generateKey({ name: "AES-GCM", length: 256 }, false, ["encrypt", "decrypt"]);
  });

  it("one flipped byte in the IV, ciphertext or tag of encryptBytes output fails authentication", async () => {
    const out = await encryptBytes(key, new TextEncoder().encode("file contents"), "file:1");
    for (const index of [0, 11, 12, 20, out.length - 16, out.length - 1]) {
      await expectCryptoError(decryptBytes(key, flipByte(out, index), "file:1"), "decryptBytes: authentication failed");
    }
  });

  it("wrong aad, missing aad or added aad fails authentication", async () => {
    const withAad = await encryptBytes(key, new Uint8Array([1]), "preview:title");
    await expectCryptoError(decryptBytes(key, withAad, "preview:description"), "decryptBytes: authentication failed");
    await expectCryptoError(decryptBytes(key, withAad), "decryptBytes: authentication failed");
    const without = await encryptBytes(key, new Uint8Array([1]));
    await expectCryptoError(decryptBytes(key, without, "preview:title"), "decryptBytes: authentication failed");
  });

  it("a wrong key fails authentication", async () => {
    await expectCryptoError(decryptBytes(otherKey, await encryptBytes(key, new Uint8Array(10))), "decryptBytes: authentication failed");
    await expectCryptoError(decryptText(otherKey, await encryptText(key, "hello")), "decryptText: authentication failed");
  });

  it("one flipped byte in encryptText output fails authentication", async () => {
    const ct = await encryptText(key, "contact name", "contact:name");
    await expectCryptoError(decryptText(key, flipB64u(ct, 0), "contact:name"), "decryptText: authentication failed");
    await expectCryptoError(decryptText(key, flipB64u(ct, -1), "contact:name"), "decryptText: authentication failed");
    await expectCryptoError(decryptText(key, ct, "contact:phone"), "decryptText: authentication failed");
  });

  it("an invite key for another channel, or altered, fails authentication", async () => {
    const blob = await encryptInvitePassword(channelId, "team pw");
    await expectCryptoError(decryptInvitePassword(otherChannelId, blob), "decryptInvitePassword: authentication failed");
    await expectCryptoError(decryptInvitePassword(channelId, flipB64u(blob, 0)), "decryptInvitePassword: authentication failed");
    await expectCryptoError(decryptInvitePassword(channelId, flipB64u(blob, 20)), "decryptInvitePassword: authentication failed");
    await expectCryptoError(decryptInvitePassword(channelId, flipB64u(blob, -1)), "decryptInvitePassword: authentication failed");
  });
});

describe("stored key bundles", () => {
  it("a bundle whose public key belongs to someone else is refused", async () => {
    const a = await exportKeyBundle(alice);
    const b = await exportKeyBundle(bob);
    await expectCryptoError(
      importKeyBundle({ ...a, rsaPublicKey: b.rsaPublicKey }),
      "importKeyBundle: public key does not match private key",
    );
    await expectCryptoError(
      importKeyBundle({ ...a, ecdhPublicKey: b.ecdhPublicKey }),
      "importKeyBundle: public key does not match private key",
    );
  });

  it("an altered private JWK is refused", async () => {
    const a = await exportKeyBundle(alice);
    await expectCryptoError(
      importKeyBundle({ ...a, ecdhPrivateKey: { ...a.ecdhPrivateKey, d: "AAAA" } }),
      "importKeyBundle: malformed bundle",
    );
    await expectCryptoError(
      importKeyBundle({ ...a, ecdhPrivateKey: { ...a.ecdhPrivateKey, crv: "P-256" } }),
      "importKeyBundle: malformed bundle",
    );
    await expectCryptoError(importKeyBundle({ ...a, rsaPrivateKey: a.ecdhPrivateKey }), "importKeyBundle: malformed bundle");
    expect((await importKeyBundle(a)).rsaPrivateKey.type).toBe("private");
  });
});

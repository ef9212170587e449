/**
 * The recovery key (docs/decisions/0027-recovery-key-and-password-reset.md): its words, its wrap key
 * against Node's own HKDF and AES-GCM, the round trip of the identity keys, and every way it must fail.
 */
import { createDecipheriv, hkdfSync } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import {
  RECOVERY_KEY_BYTES,
  deriveRecoveryWrapKey,
  exportKeyBundle,
  generateKeyBundle,
  exportPublicKey,
  newRecoveryEntropy,
  unwrapIdentityKeys,
  wrapIdentityKeys,
  type KeyBundle,
} from "../../app/crypto";
import {
  NOT_A_RECOVERY_KEY,
  WRONG_WORD_COUNT,
  newRecoveryKey,
  readRecoveryKey,
  recoveryKeyFile,
  recoveryKeyFileName,
} from "../../app/features/recovery/words";
import { b64uToBytes, expectCryptoError, flipB64u, hexToBytes } from "./crypto-helpers";

const userId = "alice1234567890";
// BIP-39's published vector for 32 bytes of 0x7f
const VECTOR_ENTROPY = hexToBytes("7f".repeat(32));
const VECTOR_WORDS =
  "legal winner thank year wave sausage worth useful legal winner thank year wave sausage worth useful legal winner thank year wave sausage worth title";

let bundle: KeyBundle;
let publicKeys: { ecdh: string; rsa: string };

beforeAll(async () => {
  bundle = await generateKeyBundle();
  publicKeys = { ecdh: await exportPublicKey(bundle.ecdhPublicKey), rsa: await exportPublicKey(bundle.rsaPublicKey) };
});

describe("recovery key words", () => {
  it("are 24 words of the BIP-39 English list, 256 bits, the published vector both ways", () => {
    const key = newRecoveryKey();
    expect(key.entropy).toHaveLength(RECOVERY_KEY_BYTES);
    expect(key.words).toHaveLength(24);
    expect(readRecoveryKey(key.words.join(" "))).toEqual({ entropy: key.entropy });
    expect(readRecoveryKey(VECTOR_WORDS)).toEqual({ entropy: new Uint8Array(VECTOR_ENTROPY) });
  });

  it("are read as typed or as downloaded: case, numbering, punctuation and line breaks do not matter", () => {
    const numbered = VECTOR_WORDS.split(" ")
      .map((word, i) => `${String(i + 1).padStart(2)}. ${word.toUpperCase()}`)
      .join("\n");
    expect(readRecoveryKey(`  ${numbered}\n`)).toEqual({ entropy: new Uint8Array(VECTOR_ENTROPY) });
    const file = recoveryKeyFile(VECTOR_WORDS.split(" "), "alice@example.test", new Date("2026-03-01T10:00:00Z"));
    expect(file).toContain("Created: 2026-03-01");
    expect(readRecoveryKey(file.split("\n").slice(7).join("\n"))).toEqual({ entropy: new Uint8Array(VECTOR_ENTROPY) });
  });

  it("download under a name per account, safe as a file name", () => {
    expect(recoveryKeyFileName("alice_7f3a")).toBe("chatcrypt-recovery-key-alice_7f3a.txt");
    expect(recoveryKeyFileName("Bob.Smith-2")).toBe("chatcrypt-recovery-key-Bob.Smith-2.txt");
    expect(recoveryKeyFileName("../evil/name")).toBe("chatcrypt-recovery-key-evil-name.txt");
    expect(recoveryKeyFileName("")).toBe("chatcrypt-recovery-key.txt");
  });

  it("say what is wrong: a missing word, a changed word (checksum), a word not in the list", () => {
    const words = VECTOR_WORDS.split(" ");
    expect(readRecoveryKey(words.slice(0, 23).join(" "))).toEqual({ problem: WRONG_WORD_COUNT });
    expect(readRecoveryKey("")).toEqual({ problem: WRONG_WORD_COUNT });
    expect(readRecoveryKey([...words.slice(0, 23), "zoo"].join(" "))).toEqual({ problem: NOT_A_RECOVERY_KEY });
    expect(readRecoveryKey(["qwerty", ...words.slice(1)].join(" "))).toEqual({ problem: NOT_A_RECOVERY_KEY });
    // 12 valid words are a BIP-39 phrase, but not a recovery key
    expect(readRecoveryKey(`${words.slice(0, 11).join(" ")} yellow`)).toEqual({ problem: WRONG_WORD_COUNT });
  });
});

describe("the recovery wrap key", () => {
  it("is HKDF-SHA256(entropy, salt = user id, info = 'chatcrypt recovery key wrap'), as Node computes it", async () => {
    const wrapped = await wrapIdentityKeys(bundle, await deriveRecoveryWrapKey(VECTOR_ENTROPY, userId), userId);
    const key = Buffer.from(hkdfSync("sha256", VECTOR_ENTROPY, userId, "chatcrypt recovery key wrap", 32));
    const [, iv, body] = wrapped.ecdh.split(".").map((part, i) => (i === 0 ? new Uint8Array() : b64uToBytes(part)));
    const decipher = createDecipheriv("aes-256-gcm", key, iv);
    decipher.setAAD(Buffer.from(`chatcrypt:ecdh:${userId}`));
    decipher.setAuthTag(body.slice(-16));
    const pkcs8 = Buffer.concat([decipher.update(body.slice(0, -16)), decipher.final()]);
    const expected = new Uint8Array(await crypto.subtle.exportKey("pkcs8", bundle.ecdhPrivateKey));
    expect(new Uint8Array(pkcs8)).toEqual(expected);
  });

  it("opens the identity keys it wrapped, checked against the account's public keys", async () => {
    const entropy = newRecoveryEntropy();
    const wrapped = await wrapIdentityKeys(bundle, await deriveRecoveryWrapKey(entropy, userId), userId);
    const { stored } = await unwrapIdentityKeys(wrapped, await deriveRecoveryWrapKey(entropy, userId), userId, publicKeys);
    const original = await exportKeyBundle(bundle);
    expect(stored.ecdhPrivateKey.d).toBe(original.ecdhPrivateKey.d);
    expect(stored.rsaPrivateKey.d).toBe(original.rsaPrivateKey.d);
    expect([stored.ecdhPublicKey, stored.rsaPublicKey]).toEqual([publicKeys.ecdh, publicKeys.rsa]);
  });

  it("fails with another recovery key, another user, a flipped byte, swapped keys, or another account's public keys", async () => {
    const entropy = newRecoveryEntropy();
    const key = await deriveRecoveryWrapKey(entropy, userId);
    const wrapped = await wrapIdentityKeys(bundle, key, userId);
    const failed = "unwrapPrivateKey: authentication failed";
    await expectCryptoError(
      unwrapIdentityKeys(wrapped, await deriveRecoveryWrapKey(newRecoveryEntropy(), userId), userId, publicKeys),
      failed,
    );
    const otherUser = "mallory12345678";
    await expectCryptoError(unwrapIdentityKeys(wrapped, await deriveRecoveryWrapKey(entropy, otherUser), otherUser, publicKeys), failed);
    await expectCryptoError(
      unwrapIdentityKeys({ ...wrapped, rsa: flipB64u(wrapped.rsa.split(".")[2], -1) }, key, userId, publicKeys),
      "unwrapPrivateKey: malformed envelope",
    );
    const [v, iv, body] = wrapped.rsa.split(".");
    await expectCryptoError(unwrapIdentityKeys({ ...wrapped, rsa: [v, iv, flipB64u(body, 5)].join(".") }, key, userId, publicKeys), failed);
    await expectCryptoError(unwrapIdentityKeys({ ecdh: wrapped.rsa, rsa: wrapped.ecdh }, key, userId, publicKeys), failed);
    const other = await generateKeyBundle();
    const otherPublic = { ecdh: await exportPublicKey(other.ecdhPublicKey), rsa: await exportPublicKey(other.rsaPublicKey) };
    await expectCryptoError(
      unwrapIdentityKeys(wrapped, key, userId, otherPublic),
      "unwrapIdentityKeys: public key does not match private key",
    );
  });

  it("takes exactly 32 bytes of entropy and a user id", async () => {
    await expectCryptoError(deriveRecoveryWrapKey(new Uint8Array(16), userId), "deriveRecoveryWrapKey: entropy must be 32 bytes");
    await expectCryptoError(deriveRecoveryWrapKey(new Uint8Array(33), userId), "deriveRecoveryWrapKey: entropy must be 32 bytes");
    await expectCryptoError(deriveRecoveryWrapKey(newRecoveryEntropy(), ""), "deriveRecoveryWrapKey: userId is required");
  });
});

/**
 * Part 4: boundaries and malformed input, of the generic functions: byte and text sizes, wrong key
 * types, argument checks, the test-only IV seam, the error type and a page without Web Crypto.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import {
  GCM_IV_BYTES,
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
  generateKeyBundle,
  importRsaPublicKey,
  randomId,
  randomUuid,
  sha256Base64,
} from "../../app/crypto";
import { aesKey, alice, aliceId, channelId, channelKey, envelope, useBoundaryKeys } from "./crypto-boundaries-setup";
import { FAST_ITERATIONS, bytesToB64u, expectCryptoError, expectCryptoErrorSync } from "./crypto-helpers";

useBoundaryKeys();

describe("generic bytes boundaries", () => {
  it("too short inputs", async () => {
    for (const n of [0, 1, 12, 27]) {
      await expectCryptoError(decryptBytes(aesKey, new Uint8Array(n)), "decryptBytes: too short");
    }
    // 28 bytes is the size of an empty message: long enough, but not authentic.
    await expectCryptoError(decryptBytes(aesKey, new Uint8Array(28)), "decryptBytes: authentication failed");
    await expectCryptoError(decryptText(aesKey, bytesToB64u(new Uint8Array(20))), "decryptText: too short");
    await expectCryptoError(decryptInvitePassword(channelId, bytesToB64u(new Uint8Array(20))), "decryptInvitePassword: too short");
  });

  it("empty data round-trips to exactly 28 bytes", async () => {
    const out = await encryptBytes(aesKey, new Uint8Array(0));
    expect(out.length).toBe(GCM_IV_BYTES + 16);
    expect((await decryptBytes(aesKey, out)).length).toBe(0);
    expect(await decryptText(aesKey, await encryptText(aesKey, ""))).toBe("");
  });

  it("malformed text input", async () => {
    await expectCryptoError(decryptText(aesKey, "not base64url!"), "decryptText: malformed input");
    await expectCryptoError(decryptText(aesKey, "AAAA="), "decryptText: malformed input");
    await expectCryptoError(decryptInvitePassword(channelId, "%%%"), "decryptInvitePassword: malformed key");
    await expectCryptoError(decryptInvitePassword(channelId, ""), "decryptInvitePassword: too short");
  });

  it("keys of the wrong type", async () => {
    const hmac = await crypto.subtle.generateKey({ name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
    await expectCryptoError(encryptBytes(hmac, new Uint8Array(1)), "encryptBytes: invalid key");
    await expectCryptoError(decryptBytes(hmac, new Uint8Array(40)), "decryptBytes: invalid key");
    const encryptOnly = await crypto.subtle.generateKey({ name: "AES-GCM", length: 256 }, false, ["encrypt"]);
    await expectCryptoError(decryptBytes(encryptOnly, await encryptBytes(encryptOnly, new Uint8Array(1))), "decryptBytes: invalid key");
    await expectCryptoError(
      decryptMessage({ key: channelKey, channelId, senderId: aliceId, envelope, verifyKey: alice.ecdhPublicKey }),
      "decryptMessage: invalid key",
    );
    await expectCryptoError(
      decryptMessage({ key: channelKey, channelId, senderId: aliceId, envelope, verifyKey: alice.rsaPrivateKey }),
      "decryptMessage: invalid key",
    );
    await expectCryptoError(
      decryptMessage({ key: hmac, channelId, senderId: aliceId, envelope, verifyKey: alice.rsaPublicKey }),
      "decryptMessage: invalid key",
    );
    await expectCryptoError(
      encryptMessage({ key: channelKey, channelId, senderId: aliceId, plaintext: "x", signingKey: alice.rsaPublicKey }),
      "encryptMessage: invalid signing key",
    );
    await expectCryptoError(
      encryptMessage({ key: hmac, channelId, senderId: aliceId, plaintext: "x", signingKey: alice.rsaPrivateKey }),
      "encryptMessage: invalid key",
    );
    await expectCryptoError(deriveContactsKey(alice.rsaPrivateKey, alice.ecdhPublicKey), "deriveContactsKey: invalid key");
    await expectCryptoError(deriveWrapKey(aesKey, aliceId), "deriveWrapKey: invalid master key");
  });

  it("non-Uint8Array data and non-string aad are refused", async () => {
    await expectCryptoError(encryptBytes(aesKey, "text" as unknown as Uint8Array), "encryptBytes: data must be a Uint8Array");
    await expectCryptoError(encryptBytes(aesKey, new Uint8Array(1), 5 as unknown as string), "encryptBytes: aad must be a string");
  });
});

describe("argument checks", () => {
  it("passwords, emails, ids and iterations", async () => {
    await expectCryptoError(deriveAccountSecrets("", "a@b.c", FAST_ITERATIONS), "deriveAccountSecrets: password is required");
    await expectCryptoError(deriveAccountSecrets("pw", "   ", FAST_ITERATIONS), "deriveAccountSecrets: email is required");
    for (const bad of [0, -1, 1.5, Number.NaN, 20_000_000]) {
      await expectCryptoError(
        deriveAccountSecrets("pw", "a@b.c", bad),
        "deriveAccountSecrets: iterations must be an integer between 1 and 10000000",
      );
      await expectCryptoError(
        deriveChannelSecrets("pw", channelId, bad),
        "deriveChannelSecrets: iterations must be an integer between 1 and 10000000",
      );
    }
    await expectCryptoError(deriveChannelSecrets("", channelId, FAST_ITERATIONS), "deriveChannelSecrets: password is required");
    await expectCryptoError(deriveChannelSecrets("pw", "", FAST_ITERATIONS), "deriveChannelSecrets: channelId is required");
    const { master } = await deriveAccountSecrets("pw", "a@b.c", 1);
    await expectCryptoError(deriveWrapKey(master, ""), "deriveWrapKey: userId is required");
    await expectCryptoError(encryptInvitePassword("", "pw"), "encryptInvitePassword: channelId is required");
    await expectCryptoError(encryptInvitePassword(channelId, ""), "encryptInvitePassword: password is required");
    await expectCryptoError(decryptInvitePassword("", "AAAA"), "decryptInvitePassword: channelId is required");
  });

  it("message ids must be non-empty and free of ':'", async () => {
    const base = { key: channelKey, plaintext: "x", signingKey: alice.rsaPrivateKey };
    await expectCryptoError(encryptMessage({ ...base, channelId: "a:b", senderId: aliceId }), "encryptMessage: invalid channelId");
    await expectCryptoError(encryptMessage({ ...base, channelId, senderId: "" }), "encryptMessage: invalid senderId");
    await expectCryptoError(
      decryptMessage({ key: channelKey, channelId, senderId: "x:y", envelope, verifyKey: alice.rsaPublicKey }),
      "decryptMessage: invalid senderId",
    );
    await expectCryptoError(
      encryptMessage({ ...base, channelId, senderId: aliceId, plaintext: 5 as unknown as string }),
      "encryptMessage: plaintext must be a string",
    );
  });
});

describe("dangerousTestOnlyIv", () => {
  const saved = process.env.VITEST;
  afterEach(() => {
    process.env.VITEST = saved;
  });

  it("is honoured under the test runner and must be 12 bytes", async () => {
    expect(process.env.VITEST).toBeTruthy();
    const iv = new Uint8Array(12).fill(7);
    const out = await encryptBytes(aesKey, new Uint8Array([1]), undefined, iv);
    expect(Array.from(out.slice(0, 12))).toEqual(Array.from(iv));
    await expectCryptoError(encryptBytes(aesKey, new Uint8Array([1]), undefined, new Uint8Array(16)), "encryptBytes: IV must be 12 bytes");
    await expectCryptoError(
      encryptMessage({
        key: channelKey,
        channelId,
        senderId: aliceId,
        plaintext: "x",
        signingKey: alice.rsaPrivateKey,
        dangerousTestOnlyIv: new Uint8Array(8),
      }),
      "encryptMessage: IV must be 12 bytes",
    );
  });

  it("is refused when VITEST is not set", async () => {
    delete process.env.VITEST;
    expect(process.env.VITEST).toBeUndefined();
    const iv = new Uint8Array(12);
    await expectCryptoError(encryptBytes(aesKey, new Uint8Array([1]), undefined, iv), "encryptBytes: a fixed IV is only allowed in tests");
    await expectCryptoError(
      encryptMessage({
        key: channelKey,
        channelId,
        senderId: aliceId,
        plaintext: "x",
        signingKey: alice.rsaPrivateKey,
        dangerousTestOnlyIv: iv,
      }),
      "encryptMessage: a fixed IV is only allowed in tests",
    );
    process.env.VITEST = "";
    await expectCryptoError(encryptBytes(aesKey, new Uint8Array([1]), undefined, iv), "encryptBytes: a fixed IV is only allowed in tests");
    // Random IVs keep working without the runner.
    expect((await encryptBytes(aesKey, new Uint8Array([1]))).length).toBe(29);
  });
});

describe("CryptoError", () => {
  it("carries the function name and reason", async () => {
    const err = await expectCryptoError(decryptBytes(aesKey, new Uint8Array(3)), "decryptBytes: too short");
    expect(err).toBeInstanceOf(Error);
    expect(err.fn).toBe("decryptBytes");
    expect(err.reason).toBe("too short");
  });

  it("never echoes secrets in messages", async () => {
    const err = await expectCryptoError(decryptInvitePassword(channelId, "secret-ish!"), "decryptInvitePassword: malformed key");
    expect(err.message).not.toContain("secret-ish");
  });
});

describe("without Web Crypto (a page served over plain HTTP)", () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it("every operation names the missing secure context", async () => {
    const reason = "Web Crypto unavailable (needs HTTPS or localhost)";
    const real = globalThis.crypto;
    vi.stubGlobal("crypto", { getRandomValues: real.getRandomValues.bind(real) });
    expect(globalThis.crypto.subtle).toBeUndefined();
    await expectCryptoError(deriveAccountSecrets("pw", "a@b.c", FAST_ITERATIONS), `deriveAccountSecrets: ${reason}`);
    await expectCryptoError(deriveChannelSecrets("pw", channelId, FAST_ITERATIONS), `deriveChannelSecrets: ${reason}`);
    await expectCryptoError(generateKeyBundle(), `generateKeyBundle: ${reason}`);
    await expectCryptoError(encryptBytes(aesKey, new Uint8Array(1)), `encryptBytes: ${reason}`);
    await expectCryptoError(decryptText(aesKey, bytesToB64u(new Uint8Array(30))), `decryptText: ${reason}`);
    await expectCryptoError(encryptInvitePassword(channelId, "pw"), `encryptInvitePassword: ${reason}`);
    await expectCryptoError(sha256Base64("x"), `sha256Base64: ${reason}`);
    await expectCryptoError(importRsaPublicKey("AAAA"), `importRsaPublicKey: ${reason}`);
    await expectCryptoError(
      decryptMessage({ key: channelKey, channelId, senderId: aliceId, envelope, verifyKey: alice.rsaPublicKey }),
      `decryptMessage: ${reason}`,
    );
    expectCryptoErrorSync(() => randomUuid(), `randomUuid: ${reason}`);
    // Randomness alone (getRandomValues) still works outside a secure context.
    expect(randomId()).toMatch(/^[a-z0-9]{15}$/);
  });
});

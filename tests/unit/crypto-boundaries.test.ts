/**
 * Part 4: boundaries and malformed input: sizes at and past the limits, unusual text, broken
 * envelopes, wrong key types, argument checks and the test-only IV seam.
 */
import * as nodeCrypto from "node:crypto";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import {
  CryptoError,
  GCM_IV_BYTES,
  MAX_MESSAGE_CHARS,
  MAX_MESSAGE_ENVELOPE_CHARS,
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
  randomId,
  randomUuid,
  sha256Base64,
  unwrapPrivateKey,
  wrapPrivateKey,
  type KeyBundle,
  type StoredKeyBundle,
} from "../../app/crypto";
import { FAST_ITERATIONS, bytesToB64u, expectCryptoError, expectCryptoErrorSync } from "./crypto-helpers";

const channelId = "0b6f2a4e-8f0c-4c1e-9a57-3d2f1e0c9b8a";
const aliceId = "alice1234567890";

let alice: KeyBundle;
let bob: KeyBundle;
let channelKey: CryptoKey;
let aesKey: CryptoKey;
let envelope: string;

beforeAll(async () => {
  [alice, bob] = await Promise.all([generateKeyBundle(), generateKeyBundle()]);
  channelKey = (await deriveChannelSecrets("team pw", channelId, FAST_ITERATIONS)).key;
  aesKey = await crypto.subtle.generateKey({ name: "AES-GCM", length: 256 }, false, ["encrypt", "decrypt"]);
  envelope = await encryptMessage({ key: channelKey, channelId, senderId: aliceId, plaintext: "hello", signingKey: alice.rsaPrivateKey });
});

function send(plaintext: string) {
  return encryptMessage({ key: channelKey, channelId, senderId: aliceId, plaintext, signingKey: alice.rsaPrivateKey });
}

function receive(env: string) {
  return decryptMessage({ key: channelKey, channelId, senderId: aliceId, envelope: env, verifyKey: alice.rsaPublicKey });
}

function withFields(env: string, fields: Record<string, unknown>): string {
  return JSON.stringify({ ...JSON.parse(env), ...fields });
}

describe("message sizes and text", () => {
  it("the empty message round-trips", async () => {
    expect(await receive(await send(""))).toBe("");
  });

  it("MAX_MESSAGE_CHARS is 16,000: accepted at the limit, refused one past it", async () => {
    expect(MAX_MESSAGE_CHARS).toBe(16_000);
    const atLimit = "a".repeat(MAX_MESSAGE_CHARS);
    expect(await receive(await send(atLimit))).toBe(atLimit);
    await expectCryptoError(send("a".repeat(MAX_MESSAGE_CHARS + 1)), "encryptMessage: message too long");
  });

  it("the longest possible envelope fits MAX_MESSAGE_ENVELOPE_CHARS", async () => {
    // "€" is one UTF-16 unit and three UTF-8 bytes: the worst case per character.
    const widest = "€".repeat(MAX_MESSAGE_CHARS);
    const env = await send(widest);
    expect(env.length).toBeLessThanOrEqual(MAX_MESSAGE_ENVELOPE_CHARS);
    expect(await receive(env)).toBe(widest);
    // Emoji are two UTF-16 units each: 8,000 fit, 8,001 do not.
    const emoji = "😀".repeat(MAX_MESSAGE_CHARS / 2);
    expect(await receive(await send(emoji))).toBe(emoji);
    await expectCryptoError(send(emoji + "😀"), "encryptMessage: message too long");
  });

  it.each([
    ["emoji and ZWJ sequences", "👩‍👩‍👧‍👦 🏳️‍🌈 👍🏽 ❤️"],
    ["mixed scripts and RTL", "Grüße, 你好, こんにちは, Привет, مرحبا, שלום"],
    ["combining marks", "e\u0301 vs \u00e9, Z\u0351\u0308\u034c"],
    ["control characters and NUL", "line1\nline2\r\n\ttab\u0000nul"],
    ["JSON-looking text", '{"v":1,"iv":"x"} "quotes" \\ backslash'],
    ["astral plane symbols", "𝕳𝖊𝖑𝖑𝖔 𓀀 🜁"],
  ])("%s round-trip", async (_name, text) => {
    expect(await receive(await send(text))).toBe(text);
    expect(await decryptText(aesKey, await encryptText(aesKey, text))).toBe(text);
  });

  it("unicode channel and sender ids work (no ':' allowed)", async () => {
    const key = (await deriveChannelSecrets("pw", "kanal-ü", FAST_ITERATIONS)).key;
    const env = await encryptMessage({ key, channelId: "kanal-ü", senderId: "jürgen", plaintext: "ok", signingKey: bob.rsaPrivateKey });
    expect(await decryptMessage({ key, channelId: "kanal-ü", senderId: "jürgen", envelope: env, verifyKey: bob.rsaPublicKey })).toBe("ok");
  });
});

describe("malformed message envelopes", () => {
  it.each([
    ["not JSON", "not json"],
    ["truncated JSON", '{"v":1,"iv":"'],
    ["empty string", ""],
    ["JSON null", "null"],
    ["JSON array", "[1]"],
    ["JSON number", "1"],
    ["JSON string", '"v1"'],
    ["empty object", "{}"],
  ])("%s", async (_name, env) => {
    await expectCryptoError(receive(env), "decryptMessage: malformed envelope");
  });

  it("missing or mistyped fields", async () => {
    const full = JSON.parse(envelope);
    for (const field of ["v", "iv", "ct", "sig"]) {
      const { [field]: _dropped, ...rest } = full;
      await expectCryptoError(receive(JSON.stringify(rest)), "decryptMessage: malformed envelope");
      await expectCryptoError(receive(withFields(envelope, { [field]: null })), "decryptMessage: malformed envelope");
    }
    for (const field of ["iv", "ct", "sig"]) {
      await expectCryptoError(receive(withFields(envelope, { [field]: 123 })), "decryptMessage: malformed envelope");
      await expectCryptoError(receive(withFields(envelope, { [field]: ["x"] })), "decryptMessage: malformed envelope");
    }
    await expectCryptoError(receive(withFields(envelope, { v: "1" })), "decryptMessage: malformed envelope");
  });

  it("bad base64url in any field", async () => {
    const full = JSON.parse(envelope);
    for (const field of ["iv", "ct", "sig"]) {
      const value: string = full[field];
      const variants = [
        value.slice(0, -1) + "!", // outside the alphabet
        value.replace(/.$/, "+"), // standard-base64 character
        value + "=", // padding is not used
        value + "A", // impossible length or extra byte
        " " + value,
      ];
      for (const bad of variants) {
        await expect(receive(withFields(envelope, { [field]: bad })), `${field}: ${bad.slice(-4)}`).rejects.toThrow(CryptoError);
      }
      await expectCryptoError(receive(withFields(envelope, { [field]: value.slice(0, -1) + "!" })), "decryptMessage: malformed envelope");
      await expectCryptoError(receive(withFields(envelope, { [field]: value + "=" })), "decryptMessage: malformed envelope");
    }
    // Non-canonical: the 256-byte signature ends in a character carrying 2 data bits and 4 zero bits;
    // setting one of those zero bits would decode to the same bytes, and is refused.
    const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
    const sig: string = full.sig;
    expect(sig.length).toBe(342);
    const nonCanonical = sig.slice(0, -1) + alphabet[alphabet.indexOf(sig.slice(-1)) | 1];
    expect(Buffer.from(nonCanonical, "base64url").equals(Buffer.from(sig, "base64url"))).toBe(true);
    await expectCryptoError(receive(withFields(envelope, { sig: nonCanonical })), "decryptMessage: malformed envelope");
  });

  it("wrong IV length, short ciphertext, empty signature", async () => {
    await expectCryptoError(receive(withFields(envelope, { iv: bytesToB64u(new Uint8Array(11)) })), "decryptMessage: malformed envelope");
    await expectCryptoError(receive(withFields(envelope, { iv: bytesToB64u(new Uint8Array(13)) })), "decryptMessage: malformed envelope");
    await expectCryptoError(receive(withFields(envelope, { ct: bytesToB64u(new Uint8Array(15)) })), "decryptMessage: malformed envelope");
    await expectCryptoError(receive(withFields(envelope, { sig: "" })), "decryptMessage: malformed envelope");
    // A signature of the wrong length is simply invalid.
    await expectCryptoError(receive(withFields(envelope, { sig: bytesToB64u(new Uint8Array(255)) })), "decryptMessage: bad signature");
  });

  it("unsupported versions", async () => {
    await expectCryptoError(receive(withFields(envelope, { v: 2 })), "decryptMessage: unsupported version");
    await expectCryptoError(receive(withFields(envelope, { v: 0 })), "decryptMessage: unsupported version");
  });

  it("oversized envelopes and non-string input", async () => {
    await expectCryptoError(
      receive(withFields(envelope, { pad: "x".repeat(MAX_MESSAGE_ENVELOPE_CHARS) })),
      "decryptMessage: malformed envelope",
    );
    await expectCryptoError(receive(undefined as unknown as string), "decryptMessage: malformed envelope");
    // Unknown extra fields are ignored.
    expect(await receive(withFields(envelope, { note: "x" }))).toBe("hello");
  });
});

describe("malformed wrapped keys", () => {
  let wrapKey: CryptoKey;
  let env: string;
  beforeAll(async () => {
    const { master } = await deriveAccountSecrets("hunter22", "alice@example.com", FAST_ITERATIONS);
    wrapKey = await deriveWrapKey(master, aliceId);
    env = await wrapPrivateKey(alice.ecdhPrivateKey, wrapKey, "ecdh", aliceId);
  });

  it.each([
    ["empty", ""],
    ["no separators", "v1"],
    ["two parts", "v1.AAAAAAAAAAAAAAAA"],
    ["four parts", "v1.AAAAAAAAAAAAAAAA.AAAAAAAAAAAAAAAAAAAAAA.x"],
    ["unknown prefix", "x1.AAAAAAAAAAAAAAAA.AAAAAAAAAAAAAAAAAAAAAA"],
    ["bad base64 iv", "v1.AAAAAAAAAAAAAAA!.AAAAAAAAAAAAAAAAAAAAAA"],
    ["bad base64 ct", "v1.AAAAAAAAAAAAAAAA.AAAA+AAAAAAAAAAAAAAAAA"],
    ["short iv", "v1.AAAAAAAAAAAAAAA.AAAAAAAAAAAAAAAAAAAAAA"],
    ["ciphertext shorter than a tag", "v1.AAAAAAAAAAAAAAAA.AAAA"],
  ])("%s", async (_name, bad) => {
    await expectCryptoError(unwrapPrivateKey(bad, wrapKey, "ecdh", aliceId), "unwrapPrivateKey: malformed envelope");
  });

  it("unsupported version", async () => {
    await expectCryptoError(
      unwrapPrivateKey(env.replace(/^v1\./, "v2."), wrapKey, "ecdh", aliceId),
      "unwrapPrivateKey: unsupported version",
    );
  });

  it("argument checks", async () => {
    await expectCryptoError(unwrapPrivateKey(env, wrapKey, "dsa" as "ecdh", aliceId), 'unwrapPrivateKey: kind must be "ecdh" or "rsa"');
    await expectCryptoError(unwrapPrivateKey(env, wrapKey, "ecdh", ""), "unwrapPrivateKey: userId is required");
    await expectCryptoError(unwrapPrivateKey(env, alice.rsaPublicKey, "ecdh", aliceId), "unwrapPrivateKey: invalid key");
    await expectCryptoError(wrapPrivateKey(alice.ecdhPrivateKey, wrapKey, "rsa", aliceId), "wrapPrivateKey: not an rsa private key");
    await expectCryptoError(wrapPrivateKey(alice.rsaPrivateKey, wrapKey, "ecdh", aliceId), "wrapPrivateKey: not an ecdh private key");
    await expectCryptoError(wrapPrivateKey(alice.ecdhPublicKey, wrapKey, "ecdh", aliceId), "wrapPrivateKey: not an ecdh private key");
    const locked = await crypto.subtle.generateKey({ name: "ECDH", namedCurve: "P-384" }, false, ["deriveBits"]);
    await expectCryptoError(wrapPrivateKey(locked.privateKey, wrapKey, "ecdh", aliceId), "wrapPrivateKey: private key is not extractable");
    await expectCryptoError(wrapPrivateKey(alice.ecdhPrivateKey, alice.rsaPrivateKey, "ecdh", aliceId), "wrapPrivateKey: invalid key");
  });
});

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

describe("public keys and stored bundles", () => {
  it("importEcdhPublicKey / importRsaPublicKey reject bad input", async () => {
    const rsaSpki = await exportPublicKey(alice.rsaPublicKey);
    const ecdhSpki = await exportPublicKey(alice.ecdhPublicKey);
    await expectCryptoError(importEcdhPublicKey("not base64"), "importEcdhPublicKey: malformed key");
    await expectCryptoError(importEcdhPublicKey(""), "importEcdhPublicKey: malformed key");
    await expectCryptoError(importEcdhPublicKey(rsaSpki), "importEcdhPublicKey: malformed key");
    await expectCryptoError(importRsaPublicKey(ecdhSpki), "importRsaPublicKey: malformed key");
    await expectCryptoError(importRsaPublicKey(rsaSpki.slice(0, -8) + "AAAAAAA="), "importRsaPublicKey: malformed key");
    const p256 = nodeCrypto
      .generateKeyPairSync("ec", { namedCurve: "prime256v1" })
      .publicKey.export({ type: "spki", format: "der" })
      .toString("base64");
    await expectCryptoError(importEcdhPublicKey(p256), "importEcdhPublicKey: malformed key");
    const rsa1024 = nodeCrypto
      .generateKeyPairSync("rsa", { modulusLength: 1024 })
      .publicKey.export({ type: "spki", format: "der" })
      .toString("base64");
    await expectCryptoError(importRsaPublicKey(rsa1024), "importRsaPublicKey: unsupported key size");
    await expectCryptoError(exportPublicKey(alice.rsaPrivateKey), "exportPublicKey: not a public key");
  });

  it("importKeyBundle rejects malformed stored bundles", async () => {
    const good = await exportKeyBundle(alice);
    const bad: unknown[] = [
      null,
      "string",
      {},
      { ...good, ecdhPrivateKey: undefined },
      { ...good, rsaPrivateKey: "jwk" },
      { ...good, ecdhPublicKey: 5 },
      { ...good, rsaPublicKey: "@@@@" },
      { ...good, ecdhPublicKey: good.rsaPublicKey },
      { ...good, ecdhPrivateKey: { ...good.ecdhPrivateKey, d: undefined } },
    ];
    for (const value of bad) {
      await expectCryptoError(importKeyBundle(value as StoredKeyBundle), "importKeyBundle: malformed bundle");
    }
  });

  it("exportKeyBundle refuses non-bundles and locked private keys", async () => {
    await expectCryptoError(exportKeyBundle({ ...alice, rsaPrivateKey: alice.ecdhPrivateKey }), "exportKeyBundle: not a key bundle");
    const locked = await crypto.subtle.generateKey(
      { name: "RSA-PSS", modulusLength: 2048, publicExponent: new Uint8Array([1, 0, 1]), hash: "SHA-256" },
      false,
      ["sign", "verify"],
    );
    await expectCryptoError(
      exportKeyBundle({ ...alice, rsaPrivateKey: locked.privateKey, rsaPublicKey: locked.publicKey }),
      "exportKeyBundle: private keys are not extractable",
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

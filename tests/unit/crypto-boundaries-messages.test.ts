/**
 * Part 4: boundaries and malformed input, of messages: sizes at and past the limits, unusual text
 * and broken envelopes.
 */
import { describe, expect, it } from "vitest";
import {
  CryptoError,
  MAX_MESSAGE_BYTES,
  MAX_MESSAGE_CHARS,
  MAX_MESSAGE_ENVELOPE_CHARS,
  decryptMessage,
  decryptText,
  deriveChannelSecrets,
  encryptMessage,
  encryptText,
} from "../../app/crypto";
import { aesKey, bob, envelope, receive, send, useBoundaryKeys, withFields } from "./crypto-boundaries-setup";
import { FAST_ITERATIONS, bytesToB64u, expectCryptoError } from "./crypto-helpers";

useBoundaryKeys();

describe("message sizes and text", () => {
  it("the empty message round-trips", async () => {
    expect(await receive(await send(""))).toBe("");
  });

  it("a payload is at most MAX_MESSAGE_BYTES (49,024 UTF-8 bytes): accepted at the limit, refused one past it", async () => {
    expect(MAX_MESSAGE_CHARS).toBe(16_000);
    expect(MAX_MESSAGE_BYTES).toBe(49_024);
    const atLimit = "a".repeat(MAX_MESSAGE_BYTES);
    expect(await receive(await send(atLimit))).toBe(atLimit);
    await expectCryptoError(send("a".repeat(MAX_MESSAGE_BYTES + 1)), "encryptMessage: message too long");
  });

  it("the longest possible envelope fits MAX_MESSAGE_ENVELOPE_CHARS", async () => {
    // "€" is one UTF-16 unit and three UTF-8 bytes: the widest text of MAX_MESSAGE_CHARS.
    const widest = "€".repeat(MAX_MESSAGE_CHARS);
    const longest = await send("a".repeat(MAX_MESSAGE_BYTES));
    expect(longest.length).toBeLessThanOrEqual(MAX_MESSAGE_ENVELOPE_CHARS);
    expect(await receive(longest)).toBe("a".repeat(MAX_MESSAGE_BYTES));
    const env = await send(widest);
    expect(env.length).toBeLessThanOrEqual(MAX_MESSAGE_ENVELOPE_CHARS);
    expect(await receive(env)).toBe(widest);
    // Emoji are four UTF-8 bytes each: 12,256 fit, 12,257 do not.
    const emoji = "😀".repeat(MAX_MESSAGE_BYTES / 4);
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

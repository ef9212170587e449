/**
 * Byte helpers of the crypto library (internal module): RFC 4648 vectors, strict decoding,
 * UTF-8, concatenation, comparison and randomness.
 */
import { describe, expect, it } from "vitest";
import {
  base64Decode,
  base64Encode,
  base64UrlDecode,
  base64UrlEncode,
  bytesEqual,
  concatBytes,
  copyBytes,
  utf8Decode,
  utf8Encode,
} from "../../app/crypto/bytes";
import { randomBytes } from "../../app/crypto/random";
import { CryptoError } from "../../app/crypto";
import { expectCryptoErrorSync } from "./crypto-helpers";

const ascii = (s: string) => new TextEncoder().encode(s);

describe("base64 (RFC 4648 §10 vectors)", () => {
  const vectors: [string, string][] = [
    ["", ""],
    ["f", "Zg=="],
    ["fo", "Zm8="],
    ["foo", "Zm9v"],
    ["foob", "Zm9vYg=="],
    ["fooba", "Zm9vYmE="],
    ["foobar", "Zm9vYmFy"],
  ];
  it.each(vectors)("%j <-> %j", (plain, encoded) => {
    expect(base64Encode(ascii(plain))).toBe(encoded);
    expect(new TextDecoder().decode(base64Decode(encoded))).toBe(plain);
    expect(base64UrlEncode(ascii(plain))).toBe(encoded.replace(/=+$/, ""));
    expect(new TextDecoder().decode(base64UrlDecode(encoded.replace(/=+$/, "")))).toBe(plain);
  });

  it("uses the url-safe alphabet for base64url and the standard one for base64", () => {
    const bytes = new Uint8Array([0xfb, 0xff, 0xbf]);
    expect(base64Encode(bytes)).toBe("+/+/");
    expect(base64UrlEncode(bytes)).toBe("-_-_");
  });

  it("agrees with Buffer for every length 0..300 and random content", () => {
    for (let n = 0; n <= 300; n++) {
      const bytes = randomBytes(n);
      const std = base64Encode(bytes);
      const url = base64UrlEncode(bytes);
      expect(std).toBe(Buffer.from(bytes).toString("base64"));
      expect(url).toBe(Buffer.from(bytes).toString("base64url"));
      expect(bytesEqual(base64Decode(std), bytes)).toBe(true);
      expect(bytesEqual(base64UrlDecode(url), bytes)).toBe(true);
    }
  });

  it("rejects malformed input", () => {
    for (const bad of ["Zg", "Zg=", "Z===", "Zm9v!", "Zm 9v", "Zm9v\n", "Zh==", "-_-_", "Zm9=v", "é===", "====", "A"]) {
      expect(() => base64Decode(bad), bad).toThrow(CryptoError);
    }
    for (const bad of ["Zg==", "Z", "Zm9v+", "Zm9v/", "Zh", "Zm9v ", "AAAAA", "Zm9vYmF="]) {
      expect(() => base64UrlDecode(bad), bad).toThrow(CryptoError);
    }
    expectCryptoErrorSync(() => base64UrlDecode("A"), "base64UrlDecode: invalid length");
    expectCryptoErrorSync(() => base64UrlDecode("A!"), "base64UrlDecode: invalid character");
    expectCryptoErrorSync(() => base64UrlDecode("Zh"), "base64UrlDecode: non-canonical encoding");
    expectCryptoErrorSync(() => base64Decode("Zg"), "base64Decode: invalid length");
    expectCryptoErrorSync(() => base64Decode(42 as unknown as string), "base64Decode: not a string");
  });
});

describe("utf8", () => {
  it("round-trips text including astral characters", () => {
    const text = "añ€😀\u0000";
    expect(Array.from(utf8Encode("€"))).toEqual([0xe2, 0x82, 0xac]);
    expect(utf8Decode(utf8Encode(text))).toBe(text);
  });

  it("rejects invalid UTF-8 instead of substituting", () => {
    expectCryptoErrorSync(() => utf8Decode(new Uint8Array([0xc3])), "utf8Decode: invalid utf-8");
    expectCryptoErrorSync(() => utf8Decode(new Uint8Array([0xff, 0x41])), "utf8Decode: invalid utf-8");
  });

  it("keeps a leading byte-order mark", () => {
    expect(utf8Decode(new Uint8Array([0xef, 0xbb, 0xbf, 0x41]))).toBe("\ufeffA");
  });
});

describe("concat, copy, equality, randomness", () => {
  it("concatBytes joins in order", () => {
    expect(Array.from(concatBytes(new Uint8Array([1, 2]), new Uint8Array(0), new Uint8Array([3])))).toEqual([1, 2, 3]);
    expect(concatBytes().length).toBe(0);
  });

  it("copyBytes detaches from the source view", () => {
    const src = new Uint8Array([1, 2, 3, 4]);
    const copy = copyBytes(src.subarray(1, 3));
    src[1] = 9;
    expect(Array.from(copy)).toEqual([2, 3]);
    expect(copy.buffer.byteLength).toBe(2);
  });

  it("bytesEqual compares content and length", () => {
    expect(bytesEqual(new Uint8Array([1, 2]), new Uint8Array([1, 2]))).toBe(true);
    expect(bytesEqual(new Uint8Array([1, 2]), new Uint8Array([1, 3]))).toBe(false);
    expect(bytesEqual(new Uint8Array([1, 2]), new Uint8Array([1, 2, 0]))).toBe(false);
    expect(bytesEqual(new Uint8Array(0), new Uint8Array(0))).toBe(true);
  });

  it("randomBytes fills buffers larger than one getRandomValues call", () => {
    const big = randomBytes(200_000);
    expect(big.length).toBe(200_000);
    // The tail beyond 65,536 bytes is filled too.
    expect(big.subarray(150_000).some((b) => b !== 0)).toBe(true);
    expect(bytesEqual(randomBytes(32), randomBytes(32))).toBe(false);
    expect(randomBytes(0).length).toBe(0);
  });
});

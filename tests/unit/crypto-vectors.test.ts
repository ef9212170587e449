/**
 * Part 2: known-answer vectors. The expected values in crypto-vectors.json were computed once with
 * node:crypto (OpenSSL PBKDF2, HKDF, AES-256-GCM, RSA-PSS, ECDH), independently of the Web Crypto code
 * under test. A second group re-derives fresh values with node:crypto on every run as a cross-check.
 */
import * as nodeCrypto from "node:crypto";
import { describe, expect, it } from "vitest";
import {
  PBKDF2_ITERATIONS,
  decryptBytes,
  decryptInvitePassword,
  decryptMessage,
  deriveAccountSecrets,
  deriveChannelSecrets,
  deriveContactsKey,
  deriveWrapKey,
  encryptBytes,
  encryptMessage,
  importEcdhPublicKey,
  importRsaPublicKey,
  sha256Base64,
  unwrapPrivateKey,
} from "../../app/crypto";
import vectors from "./crypto-vectors.json";
import { bytesToHex, hexToBytes, importAesKey } from "./crypto-helpers";

const subtle = crypto.subtle;

describe("stored vectors", () => {
  it("PBKDF2_ITERATIONS is 600,000 and the stored vectors include it", () => {
    expect(PBKDF2_ITERATIONS).toBe(600_000);
    expect(vectors.account.some((v) => v.iterations === 600_000)).toBe(true);
    expect(vectors.channel.some((v) => v.iterations === 600_000)).toBe(true);
  });

  it.each(vectors.account)("loginSecret for $email at $iterations iterations", async (v) => {
    // The 600,000 case goes through the default parameter.
    const { loginSecret } =
      v.iterations === PBKDF2_ITERATIONS
        ? await deriveAccountSecrets(v.password, v.email)
        : await deriveAccountSecrets(v.password, v.email, v.iterations);
    expect(loginSecret).toBe(v.loginSecret);
  });

  it.each(vectors.channel)("verifier and key for $password at $iterations iterations", async (v) => {
    const { key, verifier } =
      v.iterations === PBKDF2_ITERATIONS
        ? await deriveChannelSecrets(v.password, v.channelId)
        : await deriveChannelSecrets(v.password, v.channelId, v.iterations);
    expect(verifier).toBe(v.verifier);
    // The derived key is non-extractable: compare what it encrypts with the known raw key.
    const iv = hexToBytes("0f0e0d0c0b0a090807060504");
    const data = new TextEncoder().encode("channel key check");
    const expected = await encryptBytes(await importAesKey(v.keyHex), data, "x", iv);
    expect(bytesToHex(await encryptBytes(key, data, "x", iv))).toBe(bytesToHex(expected));
  });

  it("encryptMessage ciphertext with a fixed IV", async () => {
    const v = vectors.message;
    const { key } = await deriveChannelSecrets(v.password, v.channelId, v.iterations);
    const signingKey = await subtle.importKey("pkcs8", Buffer.from(v.rsaPkcs8B64, "base64"), { name: "RSA-PSS", hash: "SHA-256" }, false, [
      "sign",
    ]);
    const envelope = await encryptMessage({
      key,
      channelId: v.channelId,
      senderId: v.senderId,
      plaintext: v.plaintext,
      signingKey,
      dangerousTestOnlyIv: hexToBytes(v.ivHex),
    });
    const parsed = JSON.parse(envelope);
    const expected = JSON.parse(v.envelope);
    expect(parsed.v).toBe(1);
    expect(parsed.iv).toBe(expected.iv);
    expect(parsed.ct).toBe(v.ct);
    // RSA-PSS is randomized: the signature differs but must verify with OpenSSL over the documented layout.
    const signed = Buffer.concat([
      Buffer.from(`chatcrypt:msg:v1:${v.channelId}:${v.senderId}:`, "utf8"),
      Buffer.from(v.ivHex, "hex"),
      Buffer.from(v.ct, "base64url"),
    ]);
    const publicKey = nodeCrypto.createPublicKey({ key: Buffer.from(v.rsaSpkiB64, "base64"), format: "der", type: "spki" });
    const ok = nodeCrypto.verify(
      "sha256",
      signed,
      { key: publicKey, padding: nodeCrypto.constants.RSA_PKCS1_PSS_PADDING, saltLength: 32 },
      Buffer.from(parsed.sig, "base64url"),
    );
    expect(ok).toBe(true);
    expect(parsed.sig).not.toBe(expected.sig);
  });

  it("decryptMessage accepts an envelope made and signed by OpenSSL", async () => {
    const v = vectors.message;
    const { key } = await deriveChannelSecrets(v.password, v.channelId, v.iterations);
    const verifyKey = await importRsaPublicKey(v.rsaSpkiB64);
    expect(await decryptMessage({ key, channelId: v.channelId, senderId: v.senderId, envelope: v.envelope, verifyKey })).toBe(v.plaintext);
  });

  it.each(vectors.bytes)("encryptBytes with a fixed key and IV ($plaintextHex.length hex chars, aad $aad)", async (v) => {
    const key = await importAesKey(v.keyHex);
    const aad = "aad" in v ? v.aad : undefined;
    const out = await encryptBytes(key, hexToBytes(v.plaintextHex), aad, hexToBytes(v.ivHex));
    expect(bytesToHex(out)).toBe(v.outputHex);
    expect(bytesToHex(await decryptBytes(key, hexToBytes(v.outputHex), aad))).toBe(v.plaintextHex);
  });

  it.each(["ecdh", "rsa"] as const)("unwrapPrivateKey opens a %s key wrapped by OpenSSL", async (kind) => {
    const v = vectors.wrap;
    const { master } = await deriveAccountSecrets(v.password, v.email, v.iterations);
    const wrapKey = await deriveWrapKey(master, v.userId);
    const key = await unwrapPrivateKey(v[kind].envelope, wrapKey, kind, v.userId);
    const jwk = await subtle.exportKey("jwk", key);
    expect(jwk.d).toBe(v[kind].jwkD);
    const pub = kind === "ecdh" ? await importEcdhPublicKey(v[kind].spkiB64) : await importRsaPublicKey(v[kind].spkiB64);
    const pubJwk = await subtle.exportKey("jwk", pub);
    if (kind === "ecdh") expect([jwk.x, jwk.y]).toEqual([pubJwk.x, pubJwk.y]);
    else expect(jwk.n).toBe(pubJwk.n);
  });

  it("decryptInvitePassword opens an invite key made by OpenSSL", async () => {
    const v = vectors.invite;
    expect(await decryptInvitePassword(v.channelId, v.key)).toBe(v.password);
  });

  it("deriveContactsKey matches HKDF over OpenSSL's ECDH secret", async () => {
    const v = vectors.contacts;
    const priv = await subtle.importKey("jwk", v.ecdhPrivateJwk, { name: "ECDH", namedCurve: "P-384" }, false, ["deriveBits"]);
    const key = await deriveContactsKey(priv, await importEcdhPublicKey(v.ecdhSpkiB64));
    const out = await encryptBytes(key, new TextEncoder().encode(v.plaintext), v.aad, hexToBytes(v.ivHex));
    expect(bytesToHex(out)).toBe(v.outputHex);
  });

  it.each(vectors.sha256)("sha256Base64($text)", async (v) => {
    expect(await sha256Base64(v.text)).toBe(v.base64);
  });
});

describe("cross-check against node:crypto on fresh inputs", () => {
  const pbkdf2 = (pw: string, salt: string, it: number) =>
    nodeCrypto.pbkdf2Sync(Buffer.from(pw, "utf8"), Buffer.from(salt, "utf8"), it, 32, "sha256");
  const hkdf = (ikm: Buffer, salt: string, info: string) =>
    Buffer.from(nodeCrypto.hkdfSync("sha256", ikm, Buffer.from(salt, "utf8"), Buffer.from(info, "utf8"), 32));

  it("account login secret and wrap key", async () => {
    for (let i = 0; i < 5; i++) {
      const password = nodeCrypto.randomBytes(12).toString("base64") + "é";
      const email = ` User${i}@Example.com `;
      const userId = nodeCrypto.randomBytes(8).toString("hex");
      const iterations = 1 + i * 37;
      const master = pbkdf2(password, email.trim().toLowerCase(), iterations);
      const secrets = await deriveAccountSecrets(password, email, iterations);
      expect(secrets.loginSecret).toBe(hkdf(master, "", "chatcrypt login secret").toString("base64url"));
      const wrapKey = await deriveWrapKey(secrets.master, userId);
      const expectedKey = await importAesKey(hkdf(master, userId, "chatcrypt key wrap").toString("hex"));
      const ct = await encryptBytes(expectedKey, new Uint8Array([i]));
      expect(Array.from(await decryptBytes(wrapKey, ct))).toEqual([i]);
    }
  });

  it("channel verifier and key", async () => {
    for (let i = 0; i < 5; i++) {
      const password = nodeCrypto.randomBytes(10).toString("hex");
      const channelId = nodeCrypto.randomUUID();
      const master = pbkdf2(password, channelId, 50 + i);
      const { key, verifier } = await deriveChannelSecrets(password, channelId, 50 + i);
      expect(verifier).toBe(hkdf(master, "", "chatcrypt join verifier").toString("base64url"));
      const expectedKey = await importAesKey(hkdf(master, "", "chatcrypt channel key").toString("hex"));
      expect(Array.from(await decryptBytes(key, await encryptBytes(expectedKey, new Uint8Array([i, i]))))).toEqual([i, i]);
    }
  });

  it("message ciphertext and aad layout", async () => {
    const keyBytes = nodeCrypto.randomBytes(32);
    const key = await importAesKey(keyBytes.toString("hex"));
    const rsa = await subtle.generateKey(
      { name: "RSA-PSS", modulusLength: 2048, publicExponent: new Uint8Array([1, 0, 1]), hash: "SHA-256" },
      false,
      ["sign", "verify"],
    );
    const channelId = nodeCrypto.randomUUID();
    const senderId = "abcdefghijklmno";
    const plaintext = "cross-check ✓ " + nodeCrypto.randomBytes(20).toString("hex");
    const envelope = JSON.parse(await encryptMessage({ key, channelId, senderId, plaintext, signingKey: rsa.privateKey }));
    const ct = Buffer.from(envelope.ct, "base64url");
    const decipher = nodeCrypto.createDecipheriv("aes-256-gcm", keyBytes, Buffer.from(envelope.iv, "base64url"));
    decipher.setAAD(Buffer.from(`chatcrypt:msg:v1:${channelId}:${senderId}`, "utf8"));
    decipher.setAuthTag(ct.subarray(ct.length - 16));
    expect(Buffer.concat([decipher.update(ct.subarray(0, ct.length - 16)), decipher.final()]).toString("utf8")).toBe(plaintext);
  });
});

/**
 * A new device approved from a signed-in one (docs/decisions/0059-device-approval.md). Each device makes
 * an ephemeral ECDH P-256 key pair (the private key never leaves Web Crypto); the signed-in device seals
 * the account's identity keys to the new one:
 *   secret = ECDH(own ephemeral private, other's ephemeral public)
 *   key    = HKDF-SHA256(secret, salt = utf8(requestId), info = "chatcrypt device link key") -> AES-GCM-256
 *   sealed = encryptText(key, JSON(stored key bundle), aad = "chatcrypt:device-link:v1:" + requestId + ":" + newKey + ":" + approverKey)
 * Both screens show a code of the request and both public keys (SHA-256, six decimal digits): a server
 * that put its own key in place of either shows a different code on one of them.
 */
import { LABELS } from "./constants";
import { base64Decode, base64Encode, utf8Encode } from "./bytes";
import { CryptoError, guard } from "./errors";
import { hkdfAesKey, importHkdfKey } from "./kdf";
import { subtle } from "./platform";
import { decryptText, encryptText } from "./aead";
import { importKeyBundle, type StoredKeyBundle } from "./keys";

const CURVE = { name: "ECDH", namedCurve: "P-256" } as const;
const SECRET_BITS = 256;

export interface LinkKeyPair {
  privateKey: CryptoKey;
  /** base64 SPKI */
  publicKey: string;
}

/** A fresh ephemeral key pair for one request; its private key cannot be exported. */
export async function newLinkKeyPair(): Promise<LinkKeyPair> {
  return guard("newLinkKeyPair", "key generation failed", async () => {
    const pair = await subtle().generateKey(CURVE, false, ["deriveBits"]);
    const spki = new Uint8Array(await subtle().exportKey("spki", pair.publicKey));
    return { privateKey: pair.privateKey, publicKey: base64Encode(spki) };
  });
}

/** What both sides bind: the request and the two public keys, new device's first. */
function binding(requestId: string, deviceKey: string, approverKey: string): string {
  if (!/^[a-z0-9]{15}$/.test(requestId)) throw new CryptoError("deviceLink", "malformed request id");
  return `${requestId}:${deviceKey}:${approverKey}`;
}

/** The six-digit code both screens show ("123 456"). */
export async function linkCode(requestId: string, deviceKey: string, approverKey: string): Promise<string> {
  const text = `${LABELS.deviceLinkCode}:${binding(requestId, deviceKey, approverKey)}`;
  const digest = new Uint8Array(await subtle().digest("SHA-256", utf8Encode(text)));
  const value = new DataView(digest.buffer).getUint32(0) % 1_000_000;
  const digits = String(value).padStart(6, "0");
  return `${digits.slice(0, 3)} ${digits.slice(3)}`;
}

async function sealingKey(own: CryptoKey, peerPublicKey: string, requestId: string): Promise<CryptoKey> {
  const peer = await guard("deviceLink", "malformed key", () => subtle().importKey("spki", base64Decode(peerPublicKey), CURVE, false, []));
  const bits = new Uint8Array(await subtle().deriveBits({ name: "ECDH", public: peer }, own, SECRET_BITS));
  try {
    return await hkdfAesKey(await importHkdfKey(bits), utf8Encode(requestId), LABELS.deviceLinkKey);
  } finally {
    bits.fill(0);
  }
}

const aad = (requestId: string, deviceKey: string, approverKey: string) =>
  `${LABELS.deviceLinkPrefix}:${binding(requestId, deviceKey, approverKey)}`;

/** The signed-in device seals its stored identity keys (what loadLocalKeys holds) to the new device. */
export async function sealForDevice(keys: StoredKeyBundle, own: LinkKeyPair, request: { id: string; deviceKey: string }): Promise<string> {
  const key = await sealingKey(own.privateKey, request.deviceKey, request.id);
  const { ecdhPrivateKey, ecdhPublicKey, rsaPrivateKey, rsaPublicKey } = keys;
  const text = JSON.stringify({ ecdhPrivateKey, ecdhPublicKey, rsaPrivateKey, rsaPublicKey });
  return encryptText(key, text, aad(request.id, request.deviceKey, own.publicKey));
}

/**
 * The new device opens what was sealed to it, and checks that the keys are a matching bundle of the
 * account's public keys. Errors: CryptoError("openFromDevice: ...").
 */
export async function openFromDevice(
  sealed: string,
  own: LinkKeyPair,
  request: { id: string; approverKey: string },
  account: { ecdh: string; rsa: string },
): Promise<StoredKeyBundle> {
  const fn = "openFromDevice";
  const key = await guard(fn, "malformed key", () => sealingKey(own.privateKey, request.approverKey, request.id));
  const text = await guard(fn, "authentication failed", () =>
    decryptText(key, sealed, aad(request.id, own.publicKey, request.approverKey)),
  );
  let stored: StoredKeyBundle;
  try {
    stored = JSON.parse(text) as StoredKeyBundle;
  } catch (error) {
    throw new CryptoError(fn, "malformed keys", { cause: error });
  }
  await guard(fn, "malformed keys", () => importKeyBundle(stored));
  if (stored.ecdhPublicKey !== account.ecdh || stored.rsaPublicKey !== account.rsa) throw new CryptoError(fn, "not the account's keys");
  return stored;
}

/**
 * Chat messages: encrypted with the channel key, bound to their channel and sender, and signed by
 * the sender's RSA-PSS key.
 *   aad       = utf8("chatcrypt:msg:v1:{channelId}:{senderId}")
 *   ct        = AES-GCM(key, iv (12 random bytes), utf8(plaintext), aad)      (ciphertext || tag)
 *   sig       = RSA-PSS-SHA256(saltLength 32)(utf8("chatcrypt:msg:v1:{channelId}:{senderId}:") || iv || ct)
 *   envelope  = JSON.stringify({ v: 1, iv: b64url, ct: b64url, sig: b64url })
 * The receiver verifies the signature against the sender's profile key before decrypting.
 */
import { GCM_IV_BYTES, GCM_TAG_BYTES, LABELS, MAX_MESSAGE_BYTES, MAX_MESSAGE_ENVELOPE_CHARS, PSS_SALT_BYTES } from "./constants";
import { base64UrlDecode, base64UrlEncode, concatBytes, utf8Decode, utf8Encode, type Bytes } from "./bytes";
import { CryptoError, guard } from "./errors";
import { isCryptoKey, subtle } from "./platform";
import { chooseIv, gcmDecrypt, gcmEncrypt } from "./aead";

const MESSAGE_VERSION = 1;
const PSS_PARAMS: RsaPssParams = { name: "RSA-PSS", saltLength: PSS_SALT_BYTES };

/** Channel and user ids are separated by ":" in the bound context, so they may not contain one. */
function checkId(fn: string, name: string, id: unknown): asserts id is string {
  if (typeof id !== "string" || id.length === 0 || id.includes(":")) throw new CryptoError(fn, `invalid ${name}`);
}

function context(channelId: string, senderId: string): string {
  return `${LABELS.messagePrefix}:${channelId}:${senderId}`;
}

function signedData(channelId: string, senderId: string, iv: Bytes, ct: Bytes): Bytes {
  return concatBytes(utf8Encode(`${context(channelId, senderId)}:`), iv, ct);
}

function isKey(key: unknown, type: KeyType, usage: KeyUsage): key is CryptoKey {
  return isCryptoKey(key) && key.type === type && key.algorithm.name === "RSA-PSS" && key.usages.includes(usage);
}

export async function encryptMessage(p: {
  key: CryptoKey;
  channelId: string;
  senderId: string;
  plaintext: string;
  signingKey: CryptoKey;
  dangerousTestOnlyIv?: Uint8Array;
}): Promise<string> {
  const fn = "encryptMessage";
  if (typeof p !== "object" || p === null) throw new CryptoError(fn, "missing parameters");
  const { key, channelId, senderId, plaintext, signingKey, dangerousTestOnlyIv } = p;
  checkId(fn, "channelId", channelId);
  checkId(fn, "senderId", senderId);
  if (typeof plaintext !== "string") throw new CryptoError(fn, "plaintext must be a string");
  const bytes = utf8Encode(plaintext);
  if (bytes.length > MAX_MESSAGE_BYTES) throw new CryptoError(fn, "message too long");
  if (!isKey(signingKey, "private", "sign")) throw new CryptoError(fn, "invalid signing key");
  const iv = chooseIv(fn, dangerousTestOnlyIv);
  const ct = await gcmEncrypt(fn, key, iv, bytes, utf8Encode(context(channelId, senderId)));
  const sig = await guard(
    fn,
    "invalid signing key",
    async () => new Uint8Array(await subtle().sign(PSS_PARAMS, signingKey, signedData(channelId, senderId, iv, ct))),
  );
  return JSON.stringify({ v: MESSAGE_VERSION, iv: base64UrlEncode(iv), ct: base64UrlEncode(ct), sig: base64UrlEncode(sig) });
}

interface ParsedEnvelope {
  iv: Bytes;
  ct: Bytes;
  sig: Bytes;
}

function parseEnvelope(fn: string, envelope: unknown): ParsedEnvelope {
  const malformed = (cause?: unknown) => new CryptoError(fn, "malformed envelope", { cause });
  if (typeof envelope !== "string" || envelope.length > MAX_MESSAGE_ENVELOPE_CHARS) throw malformed();
  let raw: unknown;
  try {
    raw = JSON.parse(envelope);
  } catch (err) {
    throw malformed(err);
  }
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) throw malformed();
  const obj = raw as Record<string, unknown>;
  if (typeof obj.v === "number" && obj.v !== MESSAGE_VERSION) throw new CryptoError(fn, "unsupported version");
  if (obj.v !== MESSAGE_VERSION) throw malformed();
  if (typeof obj.iv !== "string" || typeof obj.ct !== "string" || typeof obj.sig !== "string") throw malformed();
  let parsed: ParsedEnvelope;
  try {
    parsed = { iv: base64UrlDecode(obj.iv), ct: base64UrlDecode(obj.ct), sig: base64UrlDecode(obj.sig) };
  } catch (err) {
    throw malformed(err);
  }
  if (parsed.iv.length !== GCM_IV_BYTES || parsed.ct.length < GCM_TAG_BYTES || parsed.sig.length === 0) throw malformed();
  return parsed;
}

/**
 * Verifies, then decrypts, a message envelope. Errors: "decryptMessage: malformed envelope",
 * "decryptMessage: unsupported version", "decryptMessage: bad signature",
 * "decryptMessage: authentication failed", "decryptMessage: invalid key".
 */
export async function decryptMessage(p: {
  key: CryptoKey;
  channelId: string;
  senderId: string;
  envelope: string;
  verifyKey: CryptoKey;
}): Promise<string> {
  const fn = "decryptMessage";
  if (typeof p !== "object" || p === null) throw new CryptoError(fn, "missing parameters");
  const { key, channelId, senderId, envelope, verifyKey } = p;
  checkId(fn, "channelId", channelId);
  checkId(fn, "senderId", senderId);
  if (!isKey(verifyKey, "public", "verify")) throw new CryptoError(fn, "invalid key");
  const { iv, ct, sig } = parseEnvelope(fn, envelope);
  const valid = await guard(fn, "invalid key", () => subtle().verify(PSS_PARAMS, verifyKey, sig, signedData(channelId, senderId, iv, ct)));
  if (!valid) throw new CryptoError(fn, "bad signature");
  const plaintext = await gcmDecrypt(fn, key, iv, ct, utf8Encode(context(channelId, senderId)));
  return guard(fn, "invalid utf-8", () => utf8Decode(plaintext));
}

/**
 * Identity keys: an ECDH P-384 pair (key agreement, contacts key) and an RSA-PSS 2048 / SHA-256
 * pair (message signatures). Public keys travel as base64 SPKI; private keys are stored locally as
 * JWK and on the server only wrapped under the account wrap key:
 *   envelope = "v1." + base64url(iv) + "." + base64url(AES-GCM(wrapKey, pkcs8, aad = "chatcrypt:{kind}:{userId}"))
 */
import { ECDH_CURVE, GCM_IV_BYTES, GCM_TAG_BYTES, HASH_NAME, LABELS, RSA_MODULUS_BITS, RSA_PUBLIC_EXPONENT } from "./constants";
import { base64Decode, base64Encode, base64UrlDecode, base64UrlEncode, utf8Encode, type Bytes } from "./bytes";
import { CryptoError, guard } from "./errors";
import { isCryptoKey, subtle } from "./platform";
import { gcmDecrypt, gcmEncrypt } from "./aead";
import { randomBytes } from "./random";

export interface KeyBundle {
  ecdhPrivateKey: CryptoKey;
  ecdhPublicKey: CryptoKey;
  rsaPrivateKey: CryptoKey;
  rsaPublicKey: CryptoKey;
}

/** JSON-safe form kept in localStorage under "chatcrypt_keys". */
export interface StoredKeyBundle {
  ecdhPrivateKey: JsonWebKey;
  ecdhPublicKey: string;
  rsaPrivateKey: JsonWebKey;
  rsaPublicKey: string;
}

export type PrivateKeyKind = "ecdh" | "rsa";

const ECDH_PARAMS: EcKeyImportParams = { name: "ECDH", namedCurve: ECDH_CURVE };
const RSA_PARAMS: RsaHashedImportParams = { name: "RSA-PSS", hash: HASH_NAME };
const ECDH_PRIVATE_USAGES: KeyUsage[] = ["deriveBits", "deriveKey"];
const RSA_PRIVATE_USAGES: KeyUsage[] = ["sign"];
const RSA_PUBLIC_USAGES: KeyUsage[] = ["verify"];

const WRAP_VERSION = "v1";

function algorithmName(kind: PrivateKeyKind): string {
  return kind === "ecdh" ? "ECDH" : "RSA-PSS";
}

/** True when `key` is a `type` key of the algorithm used for `kind` (and, for ECDH, on P-384). */
export function keyMatches(key: unknown, kind: PrivateKeyKind, type: KeyType): key is CryptoKey {
  if (!isCryptoKey(key) || key.type !== type || key.algorithm.name !== algorithmName(kind)) return false;
  if (kind === "ecdh") return (key.algorithm as EcKeyAlgorithm).namedCurve === ECDH_CURVE;
  const alg = key.algorithm as RsaHashedKeyAlgorithm;
  return alg.modulusLength === RSA_MODULUS_BITS && alg.hash.name === HASH_NAME;
}

function checkKind(fn: string, kind: unknown): asserts kind is PrivateKeyKind {
  if (kind !== "ecdh" && kind !== "rsa") throw new CryptoError(fn, 'kind must be "ecdh" or "rsa"');
}

function checkUserId(fn: string, userId: unknown): asserts userId is string {
  if (typeof userId !== "string" || userId.length === 0) throw new CryptoError(fn, "userId is required");
}

/** Fresh identity keys. Private keys are extractable so that they can be wrapped and stored. */
export async function generateKeyBundle(): Promise<KeyBundle> {
  return guard("generateKeyBundle", "key generation failed", async () => {
    const ecdh = await subtle().generateKey(ECDH_PARAMS, true, ECDH_PRIVATE_USAGES);
    const rsa = await subtle().generateKey(
      { name: "RSA-PSS", modulusLength: RSA_MODULUS_BITS, publicExponent: RSA_PUBLIC_EXPONENT, hash: HASH_NAME },
      true,
      ["sign", "verify"],
    );
    return {
      ecdhPrivateKey: ecdh.privateKey,
      ecdhPublicKey: ecdh.publicKey,
      rsaPrivateKey: rsa.privateKey,
      rsaPublicKey: rsa.publicKey,
    };
  });
}

/** Base64 (standard, padded) SubjectPublicKeyInfo of a public key. */
export async function exportPublicKey(key: CryptoKey): Promise<string> {
  const fn = "exportPublicKey";
  if (!isCryptoKey(key) || key.type !== "public") throw new CryptoError(fn, "not a public key");
  return guard(fn, "export failed", async () => base64Encode(new Uint8Array(await subtle().exportKey("spki", key))));
}

function decodeSpki(fn: string, spkiB64: string): Bytes {
  try {
    return base64Decode(spkiB64);
  } catch (err) {
    throw new CryptoError(fn, "malformed key", { cause: err });
  }
}

/** Imports a member's ECDH P-384 public key from base64 SPKI. */
export async function importEcdhPublicKey(spkiB64: string): Promise<CryptoKey> {
  const fn = "importEcdhPublicKey";
  const spki = decodeSpki(fn, spkiB64);
  return guard(fn, "malformed key", () => subtle().importKey("spki", spki, ECDH_PARAMS, true, []));
}

/** Imports a sender's RSA-PSS / SHA-256 public key from base64 SPKI as a verify key (2048-bit only). */
export async function importRsaPublicKey(spkiB64: string): Promise<CryptoKey> {
  const fn = "importRsaPublicKey";
  const spki = decodeSpki(fn, spkiB64);
  const key = await guard(fn, "malformed key", () => subtle().importKey("spki", spki, RSA_PARAMS, true, RSA_PUBLIC_USAGES));
  if (!keyMatches(key, "rsa", "public")) throw new CryptoError(fn, "unsupported key size");
  return key;
}

/** Serialises a bundle for local storage: private keys as JWK, public keys as base64 SPKI. */
export async function exportKeyBundle(b: KeyBundle): Promise<StoredKeyBundle> {
  const fn = "exportKeyBundle";
  if (
    typeof b !== "object" ||
    b === null ||
    !keyMatches(b.ecdhPrivateKey, "ecdh", "private") ||
    !keyMatches(b.ecdhPublicKey, "ecdh", "public") ||
    !keyMatches(b.rsaPrivateKey, "rsa", "private") ||
    !keyMatches(b.rsaPublicKey, "rsa", "public")
  ) {
    throw new CryptoError(fn, "not a key bundle");
  }
  if (!b.ecdhPrivateKey.extractable || !b.rsaPrivateKey.extractable) throw new CryptoError(fn, "private keys are not extractable");
  return guard(fn, "export failed", async () => ({
    ecdhPrivateKey: await subtle().exportKey("jwk", b.ecdhPrivateKey),
    ecdhPublicKey: await exportPublicKey(b.ecdhPublicKey),
    rsaPrivateKey: await subtle().exportKey("jwk", b.rsaPrivateKey),
    rsaPublicKey: await exportPublicKey(b.rsaPublicKey),
  }));
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Copy of a stored private JWK without usage/extractability hints, after checking its shape. */
function privateJwk(value: unknown, kind: PrivateKeyKind): JsonWebKey | null {
  if (!isRecord(value) || typeof value.d !== "string") return null;
  if (kind === "ecdh" && (value.kty !== "EC" || value.crv !== ECDH_CURVE || typeof value.x !== "string" || typeof value.y !== "string"))
    return null;
  if (kind === "rsa" && (value.kty !== "RSA" || typeof value.n !== "string" || typeof value.e !== "string")) return null;
  const { key_ops: _ops, ext: _ext, ...rest } = value;
  return rest as JsonWebKey;
}

/**
 * Restores a bundle from its stored form. Private keys come back extractable (they are already in
 * local storage in the clear). Throws CryptoError("importKeyBundle: ...") when the input is malformed
 * or a public key does not belong to its private key.
 */
export async function importKeyBundle(s: StoredKeyBundle): Promise<KeyBundle> {
  const fn = "importKeyBundle";
  if (!isRecord(s)) throw new CryptoError(fn, "malformed bundle");
  const ecdhJwk = privateJwk(s.ecdhPrivateKey, "ecdh");
  const rsaJwk = privateJwk(s.rsaPrivateKey, "rsa");
  if (!ecdhJwk || !rsaJwk || typeof s.ecdhPublicKey !== "string" || typeof s.rsaPublicKey !== "string") {
    throw new CryptoError(fn, "malformed bundle");
  }
  const bundle = await guard(fn, "malformed bundle", async () => ({
    ecdhPrivateKey: await subtle().importKey("jwk", ecdhJwk, ECDH_PARAMS, true, ECDH_PRIVATE_USAGES),
    ecdhPublicKey: await importEcdhPublicKey(s.ecdhPublicKey),
    rsaPrivateKey: await subtle().importKey("jwk", rsaJwk, RSA_PARAMS, true, RSA_PRIVATE_USAGES),
    rsaPublicKey: await importRsaPublicKey(s.rsaPublicKey),
  }));
  if (!keyMatches(bundle.rsaPrivateKey, "rsa", "private")) throw new CryptoError(fn, "unsupported key size");
  const [ecdhPub, rsaPub] = await guard(fn, "malformed bundle", () =>
    Promise.all([subtle().exportKey("jwk", bundle.ecdhPublicKey), subtle().exportKey("jwk", bundle.rsaPublicKey)]),
  );
  if (ecdhPub.x !== ecdhJwk.x || ecdhPub.y !== ecdhJwk.y || rsaPub.n !== rsaJwk.n || rsaPub.e !== rsaJwk.e) {
    throw new CryptoError(fn, "public key does not match private key");
  }
  return bundle;
}

function wrapAad(kind: PrivateKeyKind, userId: string): Bytes {
  return utf8Encode(`${LABELS.wrapPrefix}:${kind}:${userId}`);
}

/** Encrypts a private key (PKCS#8) under the account wrap key, bound to its kind and owner. */
export async function wrapPrivateKey(key: CryptoKey, wrapKey: CryptoKey, kind: PrivateKeyKind, userId: string): Promise<string> {
  const fn = "wrapPrivateKey";
  checkKind(fn, kind);
  checkUserId(fn, userId);
  if (!keyMatches(key, kind, "private")) throw new CryptoError(fn, `not an ${kind} private key`);
  if (!key.extractable) throw new CryptoError(fn, "private key is not extractable");
  const pkcs8 = await guard(fn, "export failed", async () => new Uint8Array(await subtle().exportKey("pkcs8", key)));
  try {
    const iv = randomBytes(GCM_IV_BYTES);
    const ct = await gcmEncrypt(fn, wrapKey, iv, pkcs8, wrapAad(kind, userId));
    return `${WRAP_VERSION}.${base64UrlEncode(iv)}.${base64UrlEncode(ct)}`;
  } finally {
    pkcs8.fill(0);
  }
}

/**
 * Reverses wrapPrivateKey; the key comes back extractable so that it can be stored locally.
 * Errors: "unwrapPrivateKey: malformed envelope", "unwrapPrivateKey: unsupported version",
 * "unwrapPrivateKey: authentication failed" (wrong password, user, kind or altered bytes),
 * "unwrapPrivateKey: invalid key".
 */
export async function unwrapPrivateKey(envelope: string, wrapKey: CryptoKey, kind: PrivateKeyKind, userId: string): Promise<CryptoKey> {
  const fn = "unwrapPrivateKey";
  checkKind(fn, kind);
  checkUserId(fn, userId);
  if (typeof envelope !== "string") throw new CryptoError(fn, "malformed envelope");
  const parts = envelope.split(".");
  if (parts.length !== 3) throw new CryptoError(fn, "malformed envelope");
  if (parts[0] !== WRAP_VERSION) throw new CryptoError(fn, /^v\d+$/.test(parts[0]) ? "unsupported version" : "malformed envelope");
  let iv: Bytes;
  let ct: Bytes;
  try {
    iv = base64UrlDecode(parts[1]);
    ct = base64UrlDecode(parts[2]);
  } catch (err) {
    throw new CryptoError(fn, "malformed envelope", { cause: err });
  }
  if (iv.length !== GCM_IV_BYTES || ct.length < GCM_TAG_BYTES) throw new CryptoError(fn, "malformed envelope");
  const pkcs8 = await gcmDecrypt(fn, wrapKey, iv, ct, wrapAad(kind, userId));
  try {
    const key = await guard(fn, "invalid key", () =>
      subtle().importKey(
        "pkcs8",
        pkcs8,
        kind === "ecdh" ? ECDH_PARAMS : RSA_PARAMS,
        true,
        kind === "ecdh" ? ECDH_PRIVATE_USAGES : RSA_PRIVATE_USAGES,
      ),
    );
    if (!keyMatches(key, kind, "private")) throw new CryptoError(fn, "invalid key");
    return key;
  } finally {
    pkcs8.fill(0);
  }
}

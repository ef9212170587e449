/**
 * Signatures of the user's identity key (RSA-PSS, SHA-256, salt 32) over labelled data, for what a
 * sealed channel needs beyond MLS: who wrote a message (the MLS sender is a device, the signature
 * names the user) and which user a device's MLS signature key belongs to.
 *   signed = utf8(label) || 0x00 || data
 */
import { PSS_SALT_BYTES } from "./constants";
import { base64UrlDecode, base64UrlEncode, concatBytes, utf8Encode } from "./bytes";
import { guard } from "./errors";
import { subtle } from "./platform";

const PSS: RsaPssParams = { name: "RSA-PSS", saltLength: PSS_SALT_BYTES };
const labelled = (label: string, data: Uint8Array) => concatBytes(utf8Encode(label), new Uint8Array([0]), data);

export async function signLabelled(signingKey: CryptoKey, label: string, data: Uint8Array): Promise<string> {
  const sig = await guard("signLabelled", "invalid signing key", () => subtle().sign(PSS, signingKey, labelled(label, data)));
  return base64UrlEncode(new Uint8Array(sig));
}

/** False for a wrong or malformed signature (never throws for bad input). */
export async function verifyLabelled(verifyKey: CryptoKey, label: string, data: Uint8Array, signature: string): Promise<boolean> {
  try {
    return await subtle().verify(PSS, verifyKey, base64UrlDecode(signature), labelled(label, data));
  } catch {
    return false;
  }
}

/** A fresh random AES-256-GCM key for one item (a file and its name, a link preview), as base64url. */
export async function newItemKey(): Promise<string> {
  const key = await subtle().generateKey({ name: "AES-GCM", length: 256 }, true, ["encrypt", "decrypt"]);
  return base64UrlEncode(new Uint8Array(await subtle().exportKey("raw", key)));
}

export function importItemKey(raw: string): Promise<CryptoKey> {
  return guard("importItemKey", "invalid key", () =>
    subtle().importKey("raw", base64UrlDecode(raw), { name: "AES-GCM" }, false, ["encrypt", "decrypt"]),
  );
}

/**
 * Safety numbers: a number two users compare (aloud, or side by side) to check that each page holds
 * the other's real identity keys. Both sides compute the same number.
 *   identity(u) = utf8("{userId}\n{ecdhPublicKey}\n{rsaPublicKey}")            (base64 SPKI keys)
 *   digest      = SHA-512(utf8("chatcrypt:safety-number:v1\n") || min(idA, idB) || 0x00 || max(idA, idB))
 *   number      = 12 groups; group i = (big-endian 40-bit integer of digest[5i .. 5i+5]) mod 100000, 5 digits
 * Sorting the pair makes it symmetric; any change to either key changes the digest.
 */
import { concatBytes, utf8Encode } from "./bytes";
import { CryptoError } from "./errors";
import { subtle } from "./platform";

export interface IdentityKeys {
  userId: string;
  ecdhPublicKey: string;
  rsaPublicKey: string;
}

const GROUPS = 12;
const GROUP_BYTES = 5;

function identity(fn: string, keys: IdentityKeys): string {
  const parts = [keys?.userId, keys?.ecdhPublicKey, keys?.rsaPublicKey];
  if (parts.some((p) => typeof p !== "string" || p.length === 0 || p.includes("\n"))) throw new CryptoError(fn, "invalid identity keys");
  return parts.join("\n");
}

/** The safety number of two users as 12 groups of 5 digits. */
export async function safetyNumber(a: IdentityKeys, b: IdentityKeys): Promise<string[]> {
  const fn = "safetyNumber";
  const [first, second] = [identity(fn, a), identity(fn, b)].sort();
  const digest = new Uint8Array(
    await subtle().digest(
      "SHA-512",
      concatBytes(utf8Encode("chatcrypt:safety-number:v1\n"), utf8Encode(first), new Uint8Array([0]), utf8Encode(second)),
    ),
  );
  const groups: string[] = [];
  for (let i = 0; i < GROUPS; i++) {
    let value = 0;
    for (const byte of digest.subarray(i * GROUP_BYTES, (i + 1) * GROUP_BYTES)) value = value * 256 + byte;
    groups.push(String(value % 100_000).padStart(5, "0"));
  }
  return groups;
}

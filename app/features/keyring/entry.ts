import { CHANNEL_MASTER_BYTES, PBKDF2_ITERATIONS } from "~/crypto";
import { base64UrlDecode, base64UrlEncode, type Bytes } from "~/crypto/bytes";

/**
 * What one keyring entry holds (docs/decisions/0010-keyring-and-settings-vault.md, 0035-channel-master-in-the-keyring.md),
 * sealed under the keyring key with this associated data: the channel password, its PBKDF2 count and,
 * since ADR 35, the channel's master secret (the PBKDF2 output) so that a device opening the entry
 * skips the PBKDF2. Entries written before carry no master; the device that derives it adds it.
 */
export const keyringAad = (userId: string, channelId: string) => `chatcrypt:keyring:v1:${userId}:${channelId}`;

export interface KeyringSecret {
  p: string;
  i: number;
  /** base64url of the 32-byte channel master. */
  m?: string;
}

export const isKeyringSecret = (value: unknown): value is KeyringSecret =>
  typeof value === "object" &&
  value !== null &&
  typeof (value as KeyringSecret).p === "string" &&
  (value as KeyringSecret).p.length > 0 &&
  Number.isSafeInteger((value as KeyringSecret).i) &&
  (value as KeyringSecret).i >= PBKDF2_ITERATIONS;

export const keyringSecret = (password: string, iterations: number, master?: Uint8Array): KeyringSecret => ({
  p: password,
  i: iterations,
  ...(master ? { m: base64UrlEncode(master) } : {}),
});

/** The entry's channel master, or null when it has none or not one of the right size (then the password is derived). */
export function masterOf(secret: KeyringSecret): Bytes | null {
  if (typeof secret.m !== "string") return null;
  try {
    const bytes = base64UrlDecode(secret.m);
    return bytes.length === CHANNEL_MASTER_BYTES ? bytes : null;
  } catch {
    return null;
  }
}

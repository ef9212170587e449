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
  /** The password's key epoch: how many times the channel's password had been changed (ADR 0060); absent: 0. */
  e?: number;
  /** The channel's earlier passwords, newest first, kept so that messages sent under them stay readable. */
  o?: OlderSecret[];
}

/** An earlier password of the channel and its epoch (ADR 0060). */
export interface OlderSecret {
  p: string;
  i: number;
  m?: string;
  e: number;
}

const isOlderSecret = (value: unknown): value is OlderSecret =>
  typeof value === "object" &&
  value !== null &&
  typeof (value as OlderSecret).p === "string" &&
  (value as OlderSecret).p.length > 0 &&
  Number.isSafeInteger((value as OlderSecret).i) &&
  (value as OlderSecret).i >= PBKDF2_ITERATIONS &&
  Number.isSafeInteger((value as OlderSecret).e) &&
  (value as OlderSecret).e >= 0;

/** The entry's epoch (0 when it has none) and its earlier passwords that are well formed. */
export const epochOf = (secret: KeyringSecret) => (Number.isSafeInteger(secret.e) && (secret.e ?? 0) > 0 ? (secret.e as number) : 0);
export const olderOf = (secret: KeyringSecret): OlderSecret[] => (Array.isArray(secret.o) ? secret.o.filter(isOlderSecret) : []);

export const isKeyringSecret = (value: unknown): value is KeyringSecret =>
  typeof value === "object" &&
  value !== null &&
  typeof (value as KeyringSecret).p === "string" &&
  (value as KeyringSecret).p.length > 0 &&
  Number.isSafeInteger((value as KeyringSecret).i) &&
  (value as KeyringSecret).i >= PBKDF2_ITERATIONS;

export const keyringSecret = (
  password: string,
  iterations: number,
  master?: Uint8Array,
  history?: { epoch: number; older: OlderSecret[] },
): KeyringSecret => ({
  p: password,
  i: iterations,
  ...(master ? { m: base64UrlEncode(master) } : {}),
  ...(history && history.epoch > 0 ? { e: history.epoch, o: history.older } : {}),
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

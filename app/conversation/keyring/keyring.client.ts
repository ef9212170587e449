import { PBKDF2_ITERATIONS } from "~/crypto";
import type { Bytes } from "~/crypto/bytes";
import { api } from "~/lib/api.client";
import { cachedChannelIds, getChannelIterations, getChannelPassword, setChannelSecret } from "~/lib/storage.client";
import { openJson, sealJson } from "~/conversation/keyring/vault.client";
import { epochOf, isKeyringSecret, keyringAad, keyringSecret, masterOf, olderOf, type OlderSecret } from "~/conversation/keyring/entry";
import type { EncryptedKeyringEntry } from "~/conversation/keyring/types";

/**
 * The keyring (docs/decisions/0010-keyring-and-settings-vault.md): each channel password the user holds,
 * with its PBKDF2 count and the channel's master secret (ADR 35), encrypted under the keyring key and
 * bound to the user and the channel. Every device of the user opens it; this device's
 * `channel_password_{id}` entries are its cache (the master stays in the page's memory only).
 */

/** Adds (or replaces) the user's entry for a channel; `master` is the channel's PBKDF2 output, when known. */
/**
 * Channels (of a user) this page has saved to the keyring, or is saving. A sync does not add them again: the entry
 * it would add from this device's cache has no master, and could land after this page's own save.
 */
const savedHere = new Set<string>();

/** Each channel's key epoch and earlier passwords as the keyring last held them (ADR 0060): a save keeps them. */
export interface PasswordHistory {
  epoch: number;
  older: OlderSecret[];
}
const histories = new Map<string, PasswordHistory>();

/** The channel's key epoch and earlier passwords as this page last read them from the keyring. */
export const passwordHistory = (userId: string, channelId: string): PasswordHistory =>
  histories.get(`${userId}:${channelId}`) ?? { epoch: 0, older: [] };

export async function saveToKeyring(
  userId: string,
  channelId: string,
  password: string,
  iterations: number,
  master?: Uint8Array,
  history?: PasswordHistory,
) {
  const id = `${userId}:${channelId}`;
  const kept = history ?? histories.get(id);
  // a device still holding a password the channel has since changed never puts it back
  if (!history && kept?.older.some((o) => o.p === password)) return;
  savedHere.add(id);
  if (history) histories.set(id, history);
  try {
    const data = await sealJson(userId, "keyring", keyringSecret(password, iterations, master, kept), keyringAad(userId, channelId));
    await api("/api/keyring", { channelId, data });
  } catch (error) {
    savedHere.delete(`${userId}:${channelId}`);
    throw error;
  }
}

/** A channel this device can read after a sync: its password and count, and its master when the entry has one. */
export interface KeyringChannel {
  channelId: string;
  password: string;
  iterations: number;
  /** null: an entry written before ADR 35, or one this sync added from the device's cache. */
  master: Bytes | null;
  /** The password's key epoch and the channel's earlier passwords (ADR 0060). */
  history: PasswordHistory;
}

/**
 * Opens the keyring into this device's cache. Channels whose password this device holds but the keyring
 * lacks (a save that failed) are added to it. `memberOf` is the user's current channel list.
 */
export async function syncKeyring(userId: string, memberOf: readonly string[]): Promise<KeyringChannel[]> {
  const { entries } = await api<{ entries: EncryptedKeyringEntry[] }>("/api/keyring");
  const members = new Set(memberOf);
  const opened: KeyringChannel[] = [];
  await Promise.all(
    entries.map(async (entry) => {
      try {
        const secret = await openJson(userId, "keyring", entry.data, keyringAad(userId, entry.channelId));
        if (!isKeyringSecret(secret)) return;
        const history = { epoch: epochOf(secret), older: olderOf(secret) };
        histories.set(`${userId}:${entry.channelId}`, history);
        opened.push({ channelId: entry.channelId, password: secret.p, iterations: secret.i, master: masterOf(secret), history });
        if (getChannelPassword(entry.channelId) !== secret.p || getChannelIterations(entry.channelId) !== secret.i) {
          setChannelSecret(entry.channelId, secret.p, secret.i);
        }
      } catch (error) {
        console.warn("A keyring entry could not be opened", error);
      }
    }),
  );
  const inKeyring = new Set(opened.map((c) => c.channelId));
  for (const channelId of cachedChannelIds()) {
    if (inKeyring.has(channelId) || !members.has(channelId) || savedHere.has(`${userId}:${channelId}`)) continue;
    const password = getChannelPassword(channelId);
    if (!password) continue;
    const iterations = getChannelIterations(channelId) ?? PBKDF2_ITERATIONS;
    await saveToKeyring(userId, channelId, password, iterations).catch(() => undefined);
    opened.push({ channelId, password, iterations, master: null, history: { epoch: 0, older: [] } });
  }
  return opened;
}

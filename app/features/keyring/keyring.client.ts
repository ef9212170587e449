import { PBKDF2_ITERATIONS } from "~/crypto";
import { api } from "~/lib/api.client";
import { cachedChannelIds, getChannelIterations, getChannelPassword, setChannelSecret } from "~/lib/storage.client";
import { openJson, sealJson } from "~/features/keyring/vault.client";
import type { EncryptedKeyringEntry } from "~/features/keyring/types";

/**
 * The keyring (docs/decisions/0010-keyring-and-settings-vault.md): each channel password the user holds,
 * with its PBKDF2 count, encrypted under the keyring key and bound to the user and the channel. Every
 * device of the user opens it; this device's `channel_password_{id}` entries are its cache.
 */
const aad = (userId: string, channelId: string) => `chatcrypt:keyring:v1:${userId}:${channelId}`;

interface Secret {
  p: string;
  i: number;
}

const isSecret = (value: unknown): value is Secret =>
  typeof value === "object" &&
  value !== null &&
  typeof (value as Secret).p === "string" &&
  (value as Secret).p.length > 0 &&
  Number.isSafeInteger((value as Secret).i) &&
  (value as Secret).i >= PBKDF2_ITERATIONS;

/** Adds (or replaces) the user's entry for a channel. */
export async function saveToKeyring(userId: string, channelId: string, password: string, iterations: number): Promise<void> {
  const data = await sealJson(userId, "keyring", { p: password, i: iterations } satisfies Secret, aad(userId, channelId));
  await api("/api/keyring", { channelId, data });
}

/**
 * Opens the keyring into this device's cache. Channels whose password this device holds but the keyring
 * lacks (a save that failed) are added to it. `memberOf` is the user's current channel list.
 */
export async function syncKeyring(userId: string, memberOf: readonly string[]): Promise<void> {
  const { entries } = await api<{ entries: EncryptedKeyringEntry[] }>("/api/keyring");
  const members = new Set(memberOf);
  const inKeyring = new Set<string>();
  await Promise.all(
    entries.map(async (entry) => {
      try {
        const secret = await openJson(userId, "keyring", entry.data, aad(userId, entry.channelId));
        if (!isSecret(secret)) return;
        inKeyring.add(entry.channelId);
        if (getChannelPassword(entry.channelId) !== secret.p || getChannelIterations(entry.channelId) !== secret.i) {
          setChannelSecret(entry.channelId, secret.p, secret.i);
        }
      } catch (error) {
        console.warn("A keyring entry could not be opened", error);
      }
    }),
  );
  for (const channelId of cachedChannelIds()) {
    if (inKeyring.has(channelId) || !members.has(channelId)) continue;
    const password = getChannelPassword(channelId);
    if (password)
      await saveToKeyring(userId, channelId, password, getChannelIterations(channelId) ?? PBKDF2_ITERATIONS).catch(() => undefined);
  }
}

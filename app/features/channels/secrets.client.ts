import { PBKDF2_ITERATIONS, channelSecretsFromMaster, deriveChannelMaster, type ChannelSecrets } from "~/crypto";
import type { Bytes } from "~/crypto/bytes";
import { syncKeyring, saveToKeyring } from "~/features/keyring/keyring.client";

/**
 * Each channel's key, join verifier and call key base, once per page. They come from the channel's
 * master secret: the one the keyring entry carries (imported, no PBKDF2: ADR 35), or PBKDF2 over the
 * password (slow on purpose), after which an entry without the master gets it.
 */
const secretsCache = new Map<string, Promise<ChannelSecrets>>();
/** Channels whose keyring entry has no master yet, with the user whose keyring it is. */
const withoutMaster = new Map<string, string>();

const cacheKey = (channelId: string, password: string, iterations: number) => `${channelId}\u0000${iterations}\u0000${password}`;

function cached(id: string, make: () => Promise<ChannelSecrets>): Promise<ChannelSecrets> {
  let secrets = secretsCache.get(id);
  if (!secrets) {
    secrets = make();
    secretsCache.set(id, secrets);
    secrets.catch(() => secretsCache.delete(id));
  }
  return secrets;
}

/** The channel's secrets from its master (the caller zeroes the bytes afterwards). */
export const adoptMaster = (channelId: string, password: string, iterations: number, master: Bytes) =>
  cached(cacheKey(channelId, password, iterations), () => channelSecretsFromMaster(master));

/** The channel's secrets from its password: from the keyring's master when the page has it, else PBKDF2. */
export function channelSecrets(channelId: string, password: string, iterations = PBKDF2_ITERATIONS): Promise<ChannelSecrets> {
  return cached(cacheKey(channelId, password, iterations), async () => {
    const master = await deriveChannelMaster(password, channelId, iterations);
    try {
      const owner = withoutMaster.get(channelId);
      if (owner) {
        withoutMaster.delete(channelId);
        // (saveToKeyring encodes the master before it returns; the open does not wait for the save)
        saveToKeyring(owner, channelId, password, iterations, master).catch((error) => {
          withoutMaster.set(channelId, owner);
          console.warn("The channel's keyring entry could not be completed yet", error);
        });
      }
      return await channelSecretsFromMaster(master);
    } finally {
      master.fill(0);
    }
  });
}

/**
 * Opens the keyring (keyring.client.ts) and takes every master it holds, so that no channel of the
 * list needs PBKDF2 on this device; entries without one are completed when their key is derived.
 */
export async function openKeyring(userId: string, memberOf: readonly string[]): Promise<void> {
  const channels = await syncKeyring(userId, memberOf);
  await Promise.all(
    channels.map(async ({ channelId, password, iterations, master }) => {
      if (!master) {
        if (!secretsCache.has(cacheKey(channelId, password, iterations))) withoutMaster.set(channelId, userId);
        return;
      }
      try {
        await adoptMaster(channelId, password, iterations, master);
      } catch (error) {
        console.warn("A keyring entry's channel key could not be imported", error);
      } finally {
        master.fill(0);
      }
    }),
  );
}

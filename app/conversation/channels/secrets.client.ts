import { PBKDF2_ITERATIONS, channelSecretsFromMaster, deriveChannelMaster, deriveChannelSecrets, type ChannelSecrets } from "~/crypto";
import type { Bytes } from "~/crypto/bytes";
import { syncKeyring, saveToKeyring } from "~/conversation/keyring/keyring.client";
import { masterOf, type OlderSecret } from "~/conversation/keyring/entry";
import { adoptShares } from "~/conversation/channels/shares.client";
import { getChannelIterations, getChannelPassword } from "~/lib/storage.client";
import type { Channel } from "~/conversation/channels/types";
import { channelIterations } from "~/conversation/channels/iterations";

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

/** The last keyring opening asked for: the next one starts after it ends (or after TURN_WAIT_MS). */
let keyringTurn: Promise<unknown> = Promise.resolve();
/** An opening whose requests hang does not hold the next ones for longer than this. */
const TURN_WAIT_MS = 10_000;

/**
 * Opens the keyring (keyring.client.ts) and takes every master it holds, so that no channel of the
 * list needs PBKDF2 on this device; entries without one are completed when their key is derived.
 * Openings run one after another: one that read the keyring before another adopted a channel's new
 * password would otherwise store the old password again after it.
 */
export function openKeyring(userId: string, memberOf: readonly string[]): Promise<void> {
  const before = Promise.race([keyringTurn, new Promise((resolve) => setTimeout(resolve, TURN_WAIT_MS))]);
  const turn = before.then(() => openKeyringNow(userId, memberOf));
  keyringTurn = turn.catch(() => undefined);
  return turn;
}

async function openKeyringNow(userId: string, memberOf: readonly string[]): Promise<void> {
  const synced = await syncKeyring(userId, memberOf);
  const channels = await adoptShares(userId, synced, memberOf).catch((error) => {
    console.warn("The channels' new passwords could not be fetched", error);
    return synced;
  });
  await Promise.all(
    channels.map(async ({ channelId, password, iterations, master, history }) => {
      if (history.older.length > 0) rememberOlder(channelId, history.older);
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

/** Each channel's earlier passwords (ADR 0060), newest first, as the keyring holds them. */
const olderSecrets = new Map<string, OlderSecret[]>();

export function rememberOlder(channelId: string, older: OlderSecret[]) {
  olderSecrets.set(channelId, older);
}

/** The keys of the channel's earlier passwords with their epochs, newest first (from their masters where kept). */
export async function olderChannelKeys(channelId: string): Promise<{ epoch: number; key: CryptoKey }[]> {
  const older = olderSecrets.get(channelId) ?? [];
  const keys = await Promise.all(
    older.map(async (o) => {
      const master = masterOf(o);
      try {
        const secrets = master
          ? await adoptMaster(channelId, o.p, o.i, master)
          : await cached(cacheKey(channelId, o.p, o.i), () => deriveChannelSecrets(o.p, channelId, o.i));
        return { epoch: o.e, key: secrets.key };
      } catch {
        return null;
      } finally {
        master?.fill(0);
      }
    }),
  );
  return keys.filter((k): k is { epoch: number; key: CryptoKey } => k !== null);
}

/** The channel's key and join verifier from the password this device keeps, or null without one. */
async function storedSecrets(channel: Pick<Channel, "id" | "kdfIterations">) {
  const password = getChannelPassword(channel.id);
  if (!password) return null;
  return channelSecrets(channel.id, password, channelIterations(channel.kdfIterations, getChannelIterations(channel.id)));
}

export const channelKey = async (channel: Pick<Channel, "id" | "kdfIterations">): Promise<CryptoKey | null> =>
  (await storedSecrets(channel))?.key ?? null;

/** What each call's media key in the channel is derived from (crypto/call.ts), or null without the password. */
export const channelCallBase = async (channel: Pick<Channel, "id" | "kdfIterations">): Promise<CryptoKey | null> =>
  (await storedSecrets(channel))?.callBase ?? null;

/** What a sealed channel's external join shows the server: the same proof of the password as a join. */
export const channelVerifier = async (channel: Pick<Channel, "id" | "kdfIterations">): Promise<string | null> =>
  (await storedSecrets(channel))?.verifier ?? null;

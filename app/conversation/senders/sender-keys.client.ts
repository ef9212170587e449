/**
 * The identity keys a sender's signatures are checked against (ADR 0051): the key the server presents
 * now where the viewer trusts it, then every key the viewer pinned for them before (a key they had
 * before a reset without the recovery key). What verifies only under an earlier one is shown marked as
 * signed by their previous key; a key the viewer never pinned is never among them.
 */
import { importRsaPublicKey } from "~/crypto";
import { checkKeys, pinnedKeys } from "~/conversation/senders/pins.client";
import { noteHeld } from "~/conversation/senders/pin-state.client";
import { forgetProfile, senderProfiles, type SenderProfile } from "~/conversation/senders/profiles.client";

export interface SenderKey {
  key: CryptoKey;
  /** An earlier key of the sender's than the one they have now. */
  previous: boolean;
}

const imported = new Map<string, Promise<CryptoKey>>();
const importOnce = (spki: string) => {
  if (!imported.has(spki)) imported.set(spki, importRsaPublicKey(spki));
  return imported.get(spki)!;
};

/** The keys to check `sender`'s signatures against, current first; `trusted`: the presented keys match the pin (or are a first sight). */
export async function senderKeys(viewerId: string, sender: SenderProfile, trusted: boolean): Promise<SenderKey[]> {
  const current = trusted ? [{ key: sender.verifyKey, previous: false }] : [];
  if (sender.profile.id === viewerId) return current;
  const earlier = (await pinnedKeys(viewerId, sender.profile.id)).filter((spki) => !trusted || spki !== sender.profile.rsaPublicKey);
  return [...current, ...(await Promise.all(earlier.map(async (spki) => ({ key: await importOnce(spki), previous: true }))))];
}

/** The first of `keys` that `verify` accepts, or undefined. */
export async function firstHolding<T>(keys: readonly SenderKey[], verify: (key: CryptoKey) => Promise<T | null>) {
  for (const key of keys) {
    const value = await verify(key.key).catch(() => null);
    if (value !== null) return { value, key: key.key, previous: key.previous };
  }
  return undefined;
}

/** The senders of a batch of records: their profiles, whose keys the viewer trusts, and the keys to check each one's signatures against. */
export interface Senders {
  profiles: ReadonlyMap<string, SenderProfile | null>;
  trusted: ReadonlySet<string>;
  keysOf(senderId: string): readonly SenderKey[];
}

export async function sendersOf(viewerId: string, senderIds: string[], channelId: string): Promise<Senders> {
  const profiles = await senderProfiles(senderIds);
  // Messages signed by keys other than the pinned ones are held back until the user accepts them.
  const trusted = await checkKeys(
    viewerId,
    [...profiles.values()].flatMap((s) => (s ? [s.profile] : [])),
    channelId,
  );
  const keys = new Map(
    await Promise.all(
      [...profiles].flatMap(([id, s]) => (s ? [senderKeys(viewerId, s, trusted.has(id)).then((k) => [id, k] as const)] : [])),
    ),
  );
  return { profiles, trusted, keysOf: (senderId) => keys.get(senderId) ?? [] };
}

const asked = new Map<string, number>();
const ASK_AGAIN_MS = 10_000;

/**
 * After a batch of records was opened (ADR 0051): those of senders whose new keys are not accepted yet
 * that did not open under a key the user accepted are counted as held back (ADR 0103), and the senders
 * of trusted records that did not open are asked for again (each at most once in 10 s): their keys may
 * have changed since this page fetched them. Answers true
 * when the server presents other keys for one of them now: the caller opens the batch again, so that
 * the change is shown at once.
 */
export async function afterOpening(
  viewerId: string,
  channelId: string,
  records: readonly { id: string; senderId: string; kind?: string }[],
  opened: ReadonlyMap<string, unknown>,
  senders: Senders,
): Promise<boolean> {
  const theirs = records.filter((r) => r.senderId !== viewerId && senders.profiles.get(r.senderId));
  // (held: signed by keys the user has not accepted, so it did not open under any they did; a reaction or an edit is not a message)
  noteHeld(
    channelId,
    theirs.filter((r) => !senders.trusted.has(r.senderId) && !opened.has(r.id) && (!r.kind || r.kind === "reply")),
  );
  const unopened = theirs.filter((r) => !opened.has(r.id));
  const now = Date.now();
  const stale = [...new Set(unopened.filter((r) => senders.trusted.has(r.senderId)).map((r) => r.senderId))].filter(
    (id) => now - (asked.get(id) ?? 0) > ASK_AGAIN_MS,
  );
  if (stale.length === 0) return false;
  for (const id of stale) {
    asked.set(id, now);
    forgetProfile(id);
  }
  const fresh = await senderProfiles(stale);
  return stale.some((id) => fresh.get(id) && fresh.get(id)!.profile.rsaPublicKey !== senders.profiles.get(id)?.profile.rsaPublicKey);
}

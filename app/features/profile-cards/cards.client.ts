/**
 * Others' cards as this page reads them (ADR 0075): fetched in batches, the profile key opened with this
 * device's private key and the owner's public key (only when the key pins trust it), kept for the page.
 * A person without a readable card is asked for again a few seconds later at most (they may share it soon).
 */
import { useEffect, useSyncExternalStore } from "react";
import { importEcdhPublicKey, openCard, openProfileKey } from "~/crypto";
import { api } from "~/lib/api.client";
import { emit, on } from "~/lib/events";
import { deviceKeys } from "~/lib/device-keys.client";
import { senderProfiles } from "~/conversation/senders/profiles.client";
import { checkKeys } from "~/conversation/senders/pins.client";
import { parseCard } from "~/features/profile-cards/card";
import type { ProfileCard, SealedCard } from "~/features/profile-cards/types";

const MISS_RETRY_MS = 5_000;
const HIT_REFRESH_MS = 60_000;

type Entry = { card: ProfileCard | null; at: number };
const entries = new Map<string, Entry>();
const inFlight = new Set<string>();
const queued = new Set<string>();
/** People asked for while their card was being fetched: asked again when the fetch ends. */
const askedDuring = new Set<string>();
/** People asked for while their last miss was recent: asked again once it is MISS_RETRY_MS old. */
const retries = new Map<string, ReturnType<typeof setTimeout>>();
/** Usernames of people seen in conversations' member lists, to their ids (mention suggestions name people by username). */
const idsByUsername = new Map<string, string>();
let viewer: string | null = null;
let flushing: Promise<void> | null = null;

const notify = () => emit("profile-cards:changed");

/** The signed-in person whose keys open cards on this page (set once signed in; null signs out). */
export function setCardViewer(userId: string | null) {
  if (viewer === userId) return;
  viewer = userId;
  entries.clear();
  idsByUsername.clear();
  for (const timer of retries.values()) clearTimeout(timer);
  retries.clear();
  askedDuring.clear();
  notify();
}

export const cardViewer = () => viewer;

/** Notes these people's ids by username (a conversation's members, as loaded). */
export function noteUsernames(people: readonly { userId: string; username: string }[]) {
  for (const { userId, username } of people) if (username) idsByUsername.set(username.toLowerCase(), userId);
}

/** The id of a person seen by this username in a member list, if any. */
export const idOfUsername = (username: string) => idsByUsername.get(username.toLowerCase()) ?? null;

/** Replaces what the page shows for a person (the viewer's own card, just saved). */
export function putCard(userId: string, card: ProfileCard | null) {
  entries.set(userId, { card, at: Date.now() });
  notify();
}

async function openOne(me: string, sealed: SealedCard, publicKeys: Map<string, string>): Promise<ProfileCard | null> {
  const bundle = await deviceKeys(me);
  const ownerKey = publicKeys.get(sealed.ownerId);
  if (!bundle || !sealed.sealedKey || !ownerKey) return null;
  const profileKey = await openProfileKey({
    ecdhPrivateKey: bundle.ecdhPrivateKey,
    ownerPublicKey: await importEcdhPublicKey(ownerKey),
    ownerId: sealed.ownerId,
    readerId: me,
    sealed: sealed.sealedKey,
  });
  return parseCard(await openCard(profileKey, sealed.ownerId, sealed.card));
}

async function fetchCards(me: string, ids: string[]) {
  const { cards } = await api<{ cards: SealedCard[] }>(`/api/profile-cards?ids=${ids.join(",")}`);
  const profiles = [...(await senderProfiles(cards.map((c) => c.ownerId))).values()].flatMap((p) => (p ? [p.profile] : []));
  const trusted = await checkKeys(me, profiles);
  const publicKeys = new Map(profiles.filter((p) => trusted.has(p.id)).map((p) => [p.id, p.ecdhPublicKey]));
  const opened = new Map<string, ProfileCard | null>();
  for (const sealed of cards) opened.set(sealed.ownerId, await openOne(me, sealed, publicKeys).catch(() => null));
  if (viewer !== me) return;
  for (const id of ids) entries.set(id, { card: opened.get(id) ?? null, at: Date.now() });
}

async function flush() {
  const me = viewer;
  const ids = [...queued];
  queued.clear();
  if (!me || ids.length === 0) return;
  ids.forEach((id) => inFlight.add(id));
  try {
    for (let i = 0; i < ids.length; i += 100) await fetchCards(me, ids.slice(i, i + 100));
  } catch (error) {
    console.warn("Profiles could not be loaded", error);
    for (const id of ids) if (!entries.has(id)) entries.set(id, { card: null, at: Date.now() });
  } finally {
    ids.forEach((id) => inFlight.delete(id));
    notify();
    for (const id of ids) if (askedDuring.delete(id)) requestCard(id);
  }
}

/**
 * Asks for a person's card when it is not known, or was missing a few seconds ago, or is old. Asked
 * while a miss is recent (a new message of theirs, shared with the viewer a moment ago), it is asked
 * again once the miss is MISS_RETRY_MS old.
 */
export function requestCard(userId: string) {
  const entry = entries.get(userId);
  const age = entry ? Date.now() - entry.at : Infinity;
  if (!viewer) return;
  if (inFlight.has(userId)) {
    askedDuring.add(userId);
    return;
  }
  if (entry && !entry.card && age < MISS_RETRY_MS) {
    if (!retries.has(userId))
      retries.set(
        userId,
        setTimeout(() => {
          retries.delete(userId);
          requestCard(userId);
        }, MISS_RETRY_MS - age),
      );
    return;
  }
  if (entry?.card && age < HIT_REFRESH_MS) return;
  queued.add(userId);
  flushing ??= Promise.resolve().then(async () => {
    await new Promise((resolve) => setTimeout(resolve, 0));
    flushing = null;
    await flush();
  });
}

const subscribe = (listener: () => void) => on("profile-cards:changed", listener);

/** A person's card as the page knows it now (null: none, not shared with the viewer, or not yet loaded). */
export const knownCard = (userId: string): ProfileCard | null => entries.get(userId)?.card ?? null;

/** A person's card as this page can read it (null: none, not shared with the viewer, or not yet loaded). */
export function useCard(userId: string | null | undefined): ProfileCard | null {
  const card = useSyncExternalStore(
    subscribe,
    () => (userId ? knownCard(userId) : null),
    () => null,
  );
  useEffect(() => {
    if (userId) requestCard(userId);
  }, [userId]);
  return card;
}

/**
 * The viewer's own card (ADR 0075): opened for the Account dialog, saved under a new profile key each
 * time (sealed to the viewer and to everyone they share a conversation with), and shared with people who
 * join one of their conversations later, from whichever of the viewer's pages sees them first.
 */
import { importEcdhPublicKey, newProfileKey, openCard, openProfileKey, sealCard, sealProfileKey } from "~/crypto";
import { api } from "~/lib/api.client";
import { deviceKeys } from "~/lib/device-keys.client";
import { KeysMissingError } from "~/lib/errors";
import { senderProfiles } from "~/conversation/senders/profiles.client";
import { checkKeys } from "~/conversation/senders/pins.client";
import { parseCard } from "~/features/profile-cards/card";
import { cardViewer, putCard } from "~/features/profile-cards/cards.client";
import {
  CARD_TOO_LARGE,
  MAX_CARD_CHARS,
  MAX_KEYS_PER_REQUEST,
  type OwnCardState,
  type ProfileCard,
  type SealedKey,
} from "~/features/profile-cards/types";

type Own = { card: ProfileCard | null; profileKey: string | null; readers: Set<string>; people: string[] };

let own: { me: string; state: Promise<Own> } | null = null;
let chain: Promise<unknown> = Promise.resolve();

/** One change at a time: a save and a share never interleave. */
const serial = <T>(work: () => Promise<T>): Promise<T> => {
  const next = chain.then(work, work);
  chain = next.catch(() => undefined);
  return next;
};

async function keys(me: string) {
  const bundle = await deviceKeys(me);
  if (!bundle) throw new KeysMissingError();
  return bundle;
}

async function load(me: string): Promise<Own> {
  const state = await api<OwnCardState>("/api/profile-card");
  const base = { card: null, profileKey: null, readers: new Set(state.readers), people: state.people };
  if (!state.card?.sealedKey) return base;
  const bundle = await keys(me);
  try {
    const profileKey = await openProfileKey({
      ecdhPrivateKey: bundle.ecdhPrivateKey,
      ownerPublicKey: bundle.ecdhPublicKey,
      ownerId: me,
      readerId: me,
      sealed: state.card.sealedKey,
    });
    return { ...base, profileKey, card: parseCard(await openCard(profileKey, me, state.card.card)) };
  } catch {
    // sealed under keys this account no longer has (a key reset): the next save starts afresh
    return base;
  }
}

function ownState(me: string, fresh = false) {
  if (!own || own.me !== me || fresh) {
    const state = load(me);
    own = { me, state };
    state.catch(() => (own = null));
  }
  return own.state;
}

/** The viewer's card as saved (null: none), for the Account dialog. */
export async function loadOwnCard(me: string): Promise<ProfileCard | null> {
  return (await ownState(me, true)).card;
}

/** The profile key sealed to each of these people whose keys the viewer's pins trust (the viewer: its own key). */
async function sealTo(me: string, profileKey: string, readers: readonly string[]): Promise<SealedKey[]> {
  const bundle = await keys(me);
  const others = readers.filter((id) => id !== me);
  const profiles = [...(await senderProfiles(others)).values()].flatMap((p) => (p ? [p.profile] : []));
  const trusted = await checkKeys(me, profiles);
  const out: SealedKey[] = [];
  const targets = [
    ...(readers.includes(me) ? [{ id: me, key: bundle.ecdhPublicKey }] : []),
    ...(await Promise.all(
      profiles.filter((p) => trusted.has(p.id)).map(async (p) => ({ id: p.id, key: await importEcdhPublicKey(p.ecdhPublicKey) })),
    )),
  ];
  for (const { id, key } of targets)
    out.push({
      reader: id,
      sealedKey: await sealProfileKey({
        ecdhPrivateKey: bundle.ecdhPrivateKey,
        readerPublicKey: key,
        ownerId: me,
        readerId: id,
        profileKey,
      }),
    });
  return out;
}

async function postKeys(sealed: readonly SealedKey[], prune: boolean) {
  for (let i = 0; i < sealed.length; i += MAX_KEYS_PER_REQUEST)
    await api("/api/profile-card/keys", { keys: sealed.slice(i, i + MAX_KEYS_PER_REQUEST), prune: prune && i === 0 });
}

/** Saves the viewer's card (null or empty: removes it). Throws with words to show when it cannot be saved. */
export function saveOwnCard(me: string, card: ProfileCard | null): Promise<void> {
  return serial(async () => {
    const empty = !card || (!card.name && !card.photo);
    if (empty) {
      await api("/api/profile-card", { remove: true });
      own = { me, state: Promise.resolve({ card: null, profileKey: null, readers: new Set(), people: [] }) };
      putCard(me, null);
      return;
    }
    const profileKey = await newProfileKey();
    const sealed = await sealCard(profileKey, me, card);
    if (sealed.length > MAX_CARD_CHARS) throw new Error(CARD_TOO_LARGE);
    const { people } = await api<OwnCardState>("/api/profile-card");
    const sealedKeys = await sealTo(me, profileKey, [me, ...people]);
    await api("/api/profile-card", { card: sealed });
    await postKeys(sealedKeys, true);
    own = { me, state: Promise.resolve({ card, profileKey, readers: new Set(sealedKeys.map((k) => k.reader)), people }) };
    putCard(me, card);
  });
}

/** Shares the viewer's card with everyone they share a conversation with who has no key yet (once a page starts). */
export async function shareWithEveryone(): Promise<void> {
  const me = cardViewer();
  if (!me) return;
  const { people } = await ownState(me).catch(() => ({ people: [] as string[] }));
  await shareCardWith(people);
}

/** Shares the viewer's card with these people (members of a conversation just seen) where not done yet. */
export function shareCardWith(ids: readonly string[]): Promise<void> {
  const me = cardViewer();
  if (!me) return Promise.resolve();
  return serial(async () => {
    const current = await ownState(me);
    if (!current.profileKey || ids.every((id) => id === me || current.readers.has(id))) return;
    const missing = ids.filter((id) => id !== me && !current.readers.has(id));
    const sealed = await sealTo(me, current.profileKey, missing);
    if (sealed.length === 0) return;
    await postKeys(sealed, false);
    sealed.forEach((k) => current.readers.add(k.reader));
  }).catch((error) => console.warn("Your profile could not be shared", error));
}

import { api, ApiError } from "~/lib/api.client";
import { openJson, sealJson } from "~/conversation/keyring/vault.client";
import type { PublicProfile, SealedHead } from "~/conversation/senders/types";
import { MAX_PINS_PER_SAVE, type EncryptedPin, type Pin } from "~/conversation/senders/types";
import { openHead, pinDigest, readCopy, reconcile, sealHead, writeCopy, type PinBook } from "~/conversation/senders/pin-head.client";
import { accepted, forgetPinState, matches, pinSnapshot, publish, type KeyChange } from "~/conversation/senders/pin-state.client";
import { emit } from "~/lib/events";

/**
 * Key pinning (issue 16, item 1): the identity public keys of every user this page meets are pinned the
 * first time they are seen, in the user's keyring (sealed under the keyring key, so all the user's
 * devices compare against the same keys). When the server later presents other keys for someone, that
 * person's messages are held back and the channel says so until the user accepts the new keys.
 * The pins are checked as a whole against their head and this device's copy (pin-head.client.ts): a
 * pin the server deleted, replaced or rolled back is "could not be checked", never a first sight.
 */
const aad = (userId: string, subjectId: string) => `chatcrypt:pin:v1:${userId}:${subjectId}`;

const isPin = (value: unknown): value is Pin =>
  typeof value === "object" &&
  value !== null &&
  typeof (value as Pin).e === "string" &&
  typeof (value as Pin).r === "string" &&
  (value as Pin).e.length > 0 &&
  (value as Pin).r.length > 0 &&
  typeof (value as Pin).v === "boolean" &&
  ((value as Pin).o === undefined || (Array.isArray((value as Pin).o) && (value as Pin).o!.every((k) => typeof k === "string")));

let owner = "";
let loaded: Promise<PinBook> | null = null;

/** One of the user's pins, opened (null when it does not open, or is not a pin). */
export async function openPin(userId: string, entry: EncryptedPin): Promise<Pin | null> {
  const pin = await openJson(userId, "keyring", entry.data, aad(userId, entry.subjectId)).catch(() => null);
  return isPin(pin) ? pin : null;
}

/** Reads the pins and their head from the server and checks them against this device's copy. Pins that do not open are left out. */
async function readBook(userId: string): Promise<PinBook> {
  const { pins: entries, head } = await api<{ pins: EncryptedPin[]; head: SealedHead | null }>("/api/pins");
  const served = new Map<string, Pin>();
  await Promise.all(
    entries.map(async (entry) => {
      const pin = await openPin(userId, entry);
      if (pin) served.set(entry.subjectId, pin);
    }),
  );
  const book = await reconcile(served, await openHead(userId, head), await readCopy(userId));
  // the next head must pass the server's counter, whatever this device could read of it
  book.head.c = Math.max(book.head.c, head?.counter ?? 0);
  if (!book.closed) {
    // pins kept before heads existed get their first head (once: the next reader finds it)
    if (book.head.c === 0 && book.pins.size > 0) await writeHead(userId, book).catch(() => undefined);
    await writeCopy(userId, book.head.c, book.pins);
  }
  return book;
}

/** Reads the pins (again) for the page; `again`: what it reads wins over what the page had (another device saved it). */
function read(userId: string, again: boolean): Promise<PinBook> {
  const attempt = (loaded = readBook(userId));
  attempt.then(
    (book) => publish({ pins: again ? new Map([...pinSnapshot().pins, ...book.pins]) : new Map([...book.pins, ...pinSnapshot().pins]) }),
    () => {
      if (loaded === attempt) loaded = null;
    },
  );
  return attempt;
}

/** Opens the user's pins once per page. */
function pins(userId: string): Promise<PinBook> {
  if (owner !== userId) {
    owner = userId;
    loaded = null;
    forgetPinState();
  }
  return loaded ?? read(userId, false);
}

/**
 * The user's pins were saved with head `counter` (the live "key-pins" event). Saved by another device
 * of theirs (someone's new keys accepted there, say), this page reads them again once its own save is
 * done, and a change whose presented keys are now the pin is accepted here too: its notice goes, and
 * the conversations holding its messages read them again. A page that saved it, or read it since, does nothing.
 */
export async function pinsSavedElsewhere(userId: string, counter: number) {
  if (owner !== userId || !loaded) return;
  await saving.catch(() => undefined);
  const known = await (loaded ?? Promise.resolve(null)).catch(() => null);
  if (known && known.head.c >= counter) return;
  const book = await read(userId, true);
  const now = [...pinSnapshot().changed.values()].filter((change) => {
    const pin = book.pins.get(change.userId);
    return pin !== undefined && matches(pin, change.presented);
  });
  if (now.length === 0) return;
  accepted(now.map((change) => change.userId));
  emit("key-pins:accepted-elsewhere", [...new Set(now.flatMap((change) => [...change.channels]))]);
}

/** Reads the user's pins ahead of the first message to check (every message shown is checked against them). */
export function warmPins(userId: string) {
  pins(userId).catch(() => undefined);
}

/** Stores the next head (with the pins that changed) and this device's copy; the book's counter moves on. */
async function writeHead(userId: string, book: PinBook, changed: ReadonlyMap<string, Pin> = new Map()) {
  const next = { c: book.head.c + 1, s: { ...book.head.s } };
  const sealed = await Promise.all(
    [...changed].map(async ([subjectId, value]) => {
      next.s[subjectId] = await pinDigest(subjectId, value);
      return { subjectId, data: await sealJson(userId, "keyring", value, aad(userId, subjectId)) };
    }),
  );
  const save = { ...(sealed.length ? { pins: sealed } : {}), head: await sealHead(userId, next) };
  unanswered = save;
  try {
    await api("/api/pins", save);
  } finally {
    if (unanswered === save) unanswered = null;
  }
  book.head = next;
  for (const [subjectId, value] of changed) {
    book.pins.set(subjectId, value);
    book.unchecked.delete(subjectId);
  }
  await writeCopy(userId, next.c, book.pins);
}

/** The save sent the ordinary way and not answered yet: a page hidden meanwhile would take it with it. */
let unanswered: { pins?: EncryptedPin[]; head: SealedHead } | null = null;

// The page is being hidden (the tab closed right after someone's keys were first seen, a reload): the
// save under way goes again, in a request that outlives the page. The server takes one head per counter,
// so a save that had arrived is refused the second time (409) and nothing is saved twice.
if (typeof window !== "undefined")
  window.addEventListener("pagehide", () => {
    if (unanswered) api("/api/pins", unanswered, { keepalive: true }).catch(() => undefined);
  });

// One save at a time per page: each takes the head the previous one wrote. Pins that change while a
// save runs (a conversation's senders seen for the first time) wait for it and are saved together.
let saving: Promise<unknown> = Promise.resolve();
let next: { userId: string; pins: Map<string, Pin>; done: Promise<void> } | null = null;

function savePin(userId: string, subjectId: string, pin: Pin): Promise<void> {
  publish({ pins: new Map(pinSnapshot().pins).set(subjectId, pin) });
  if (next?.userId === userId && (next.pins.has(subjectId) || next.pins.size < MAX_PINS_PER_SAVE)) {
    next.pins.set(subjectId, pin);
    return next.done;
  }
  const batch = { userId, pins: new Map([[subjectId, pin]]), done: Promise.resolve() };
  batch.done = saving
    .catch(() => undefined)
    .then(() => {
      if (next === batch) next = null;
      return saveNow(userId, batch.pins);
    });
  next = batch;
  saving = batch.done;
  return batch.done;
}

async function saveNow(userId: string, changed: ReadonlyMap<string, Pin>) {
  let book = await pins(userId);
  for (let attempt = 1; ; attempt++) {
    try {
      await writeHead(userId, book, changed);
      return;
    } catch (error) {
      // 409: another of the user's devices saved first; read what it wrote and save over it
      if (!(error instanceof ApiError && error.status === 409) || attempt === 3) throw error;
      loaded = readBook(userId);
      book = await loaded;
      if (book.closed) throw error;
    }
  }
}

/**
 * Checks the keys the server presents for these users against the pins, pinning those seen for the first
 * time. Answers the ids whose messages may be shown; the others are listed as changed.
 */
export async function checkKeys(userId: string, profiles: readonly PublicProfile[], channelId?: string): Promise<Set<string>> {
  const book = await pins(userId);
  const trusted = new Set<string>();
  const changed = new Map(pinSnapshot().changed);
  for (const profile of profiles) {
    if (profile.id === userId) {
      trusted.add(profile.id);
      continue;
    }
    const pin = book.pins.get(profile.id);
    const reason = pin ? "changed" : "unchecked";
    // A deleted account's kept keys, seen for the first time: trusted as a first sight, not pinned (the
    // account it would pin is gone); a pin from before its deletion is checked like any other.
    if (!pin && profile.deleted && !book.unchecked.has(profile.id)) {
      trusted.add(profile.id);
      continue;
    }
    if (!pin && !book.closed && !book.unchecked.has(profile.id)) {
      const first: Pin = { e: profile.ecdhPublicKey, r: profile.rsaPublicKey, v: false };
      book.pins.set(profile.id, first);
      savePin(userId, profile.id, first).catch((error) => console.warn("A key pin could not be saved", error));
      trusted.add(profile.id);
    } else if (pin && matches(pin, profile)) {
      trusted.add(profile.id);
      changed.delete(profile.id);
    } else {
      const before = changed.get(profile.id);
      const channels = new Set(before?.channels ?? []);
      if (channelId) channels.add(channelId);
      if (
        before &&
        before.reason === reason &&
        before.presented.rsaPublicKey === profile.rsaPublicKey &&
        before.presented.ecdhPublicKey === profile.ecdhPublicKey &&
        channels.size === before.channels.size
      )
        continue;
      changed.set(profile.id, { reason, userId: profile.id, username: profile.username, presented: profile, channels });
    }
  }
  const before = pinSnapshot().changed;
  if (changed.size !== before.size || [...changed].some(([id, c]) => before.get(id) !== c)) publish({ changed });
  return trusted;
}

/**
 * The user accepts the keys the server now presents for someone: they become the pin (not verified). The
 * keys pinned before are kept as previous ones (ADR 0051): what they signed stays shown, marked.
 */
export async function acceptKeys(userId: string, change: KeyChange) {
  const before = (await pins(userId)).pins.get(change.userId);
  const r = change.presented.rsaPublicKey;
  const o = [...new Set([...(before?.o ?? []), ...(before ? [before.r] : [])])].filter((k) => k !== r);
  await savePin(userId, change.userId, { e: change.presented.ecdhPublicKey, r, v: false, ...(o.length ? { o } : {}) });
  accepted([change.userId]);
}

/** The user compared the safety number with someone: their pinned keys are marked verified. */
export async function markVerified(userId: string, subjectId: string) {
  const pin = (await pins(userId)).pins.get(subjectId);
  if (pin) await savePin(userId, subjectId, { ...pin, v: true });
}

/**
 * Every RSA identity key the user pinned for `subjectId`, current first, then earlier ones (ADR 0051):
 * a device's credential or a message that verifies under one of them was made by a key the user trusted
 * at some point. Empty when nothing is pinned.
 */
export async function pinnedKeys(userId: string, subjectId: string): Promise<string[]> {
  const pin = (await pins(userId)).pins.get(subjectId);
  return pin ? [pin.r, ...(pin.o ?? [])] : [];
}

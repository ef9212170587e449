import { api } from "~/lib/api.client";
import { openJson, sealJson } from "~/features/keyring/vault.client";
import type { PublicProfile } from "~/features/pins/types";
import type { EncryptedPin, Pin } from "~/features/pins/types";

/**
 * Key pinning (issue 16, item 1): the identity public keys of every user this page meets are pinned the
 * first time they are seen, in the user's keyring (sealed under the keyring key, so all the user's
 * devices compare against the same keys). When the server later presents other keys for someone, that
 * person's messages are held back and the channel says so until the user accepts the new keys.
 */
const aad = (userId: string, subjectId: string) => `chatcrypt:pin:v1:${userId}:${subjectId}`;

const isPin = (value: unknown): value is Pin =>
  typeof value === "object" &&
  value !== null &&
  typeof (value as Pin).e === "string" &&
  typeof (value as Pin).r === "string" &&
  (value as Pin).e.length > 0 &&
  (value as Pin).r.length > 0 &&
  typeof (value as Pin).v === "boolean";

export interface KeyChange {
  userId: string;
  username: string;
  /** The keys the server presents now (accepted with acceptKeys). */
  presented: PublicProfile;
  /** The channels where this user's messages are held back. */
  channels: ReadonlySet<string>;
}

export interface PinState {
  pins: ReadonlyMap<string, Pin>;
  changed: ReadonlyMap<string, KeyChange>;
}

let owner = "";
let loaded: Promise<Map<string, Pin>> | null = null;
let state: PinState = { pins: new Map(), changed: new Map() };
const listeners = new Set<() => void>();

function publish(next: Partial<PinState>) {
  state = { ...state, ...next };
  for (const listener of listeners) listener();
}

export const subscribePins = (listener: () => void) => {
  listeners.add(listener);
  return () => void listeners.delete(listener);
};
export const pinSnapshot = () => state;

/** Opens the user's pins once per page; entries that do not open (altered, or bound elsewhere) are left out. */
function pins(userId: string): Promise<Map<string, Pin>> {
  if (owner !== userId) {
    owner = userId;
    loaded = null;
    state = { pins: new Map(), changed: new Map() };
  }
  if (!loaded) {
    loaded = (async () => {
      const found = new Map<string, Pin>();
      const { pins: entries } = await api<{ pins: EncryptedPin[] }>("/api/pins");
      await Promise.all(
        entries.map(async (entry) => {
          const pin = await openJson(userId, "keyring", entry.data, aad(userId, entry.subjectId)).catch(() => null);
          if (isPin(pin)) found.set(entry.subjectId, pin);
        }),
      );
      return found;
    })();
    const attempt = loaded;
    attempt.then(
      (found) => publish({ pins: new Map([...found, ...state.pins]) }),
      () => {
        if (loaded === attempt) loaded = null;
      },
    );
  }
  return loaded;
}

async function savePin(userId: string, subjectId: string, pin: Pin) {
  (await pins(userId)).set(subjectId, pin);
  publish({ pins: new Map(state.pins).set(subjectId, pin) });
  const data = await sealJson(userId, "keyring", pin, aad(userId, subjectId));
  // A create racing another device's answers 409 once: the second try updates the winner's record.
  await api("/api/pins", { subjectId, data }).catch(() => api("/api/pins", { subjectId, data }));
}

const matches = (pin: Pin, profile: PublicProfile) => pin.e === profile.ecdhPublicKey && pin.r === profile.rsaPublicKey;

/**
 * Checks the keys the server presents for these users against the pins, pinning those seen for the first
 * time. Answers the ids whose messages may be shown; the others are listed as changed.
 */
export async function checkKeys(userId: string, profiles: readonly PublicProfile[], channelId?: string): Promise<Set<string>> {
  const known = await pins(userId);
  const trusted = new Set<string>();
  const changed = new Map(state.changed);
  for (const profile of profiles) {
    if (profile.id === userId) {
      trusted.add(profile.id);
      continue;
    }
    const pin = known.get(profile.id);
    if (!pin) {
      const first: Pin = { e: profile.ecdhPublicKey, r: profile.rsaPublicKey, v: false };
      known.set(profile.id, first);
      savePin(userId, profile.id, first).catch((error) => console.warn("A key pin could not be saved", error));
      trusted.add(profile.id);
    } else if (matches(pin, profile)) {
      trusted.add(profile.id);
      changed.delete(profile.id);
    } else {
      const before = changed.get(profile.id);
      const channels = new Set(before?.channels ?? []);
      if (channelId) channels.add(channelId);
      if (
        before &&
        before.presented.rsaPublicKey === profile.rsaPublicKey &&
        before.presented.ecdhPublicKey === profile.ecdhPublicKey &&
        channels.size === before.channels.size
      )
        continue;
      changed.set(profile.id, { userId: profile.id, username: profile.username, presented: profile, channels });
    }
  }
  if (changed.size !== state.changed.size || [...changed].some(([id, c]) => state.changed.get(id) !== c)) publish({ changed });
  return trusted;
}

/** The user accepts the keys the server now presents for someone: they become the pin (not verified). */
export async function acceptKeys(userId: string, change: KeyChange) {
  await savePin(userId, change.userId, { e: change.presented.ecdhPublicKey, r: change.presented.rsaPublicKey, v: false });
  const changed = new Map(state.changed);
  changed.delete(change.userId);
  publish({ changed });
}

/** The user compared the safety number with someone: their pinned keys are marked verified. */
export async function markVerified(userId: string, subjectId: string) {
  const pin = (await pins(userId)).get(subjectId);
  if (pin) await savePin(userId, subjectId, { ...pin, v: true });
}

import type { Pin, PublicProfile } from "~/conversation/senders/types";
import { emit, on } from "~/lib/events";

/** What the page knows of the user's key pins, for the parts that show it (usePins) and check against it. */
export interface KeyChange {
  /** "changed": other keys than the pin; "unchecked": the pin the user had is gone or not the one they saved. */
  reason: "changed" | "unchecked";
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
  /** "<channel id> <sender id>" -> the ids of that sender's messages held back there for keys not accepted yet. */
  held: ReadonlyMap<string, ReadonlySet<string>>;
}

const empty = (): PinState => ({ pins: new Map(), changed: new Map(), held: new Map() });
let state = empty();

export function publish(next: Partial<PinState>) {
  state = { ...state, ...next };
  emit("key-pins:changed");
}

/** Another user signed in on this page: nothing of the one before stays. */
export const forgetPinState = () => void (state = empty());

export const subscribePins = (listener: () => void) => on("key-pins:changed", listener);
export const pinSnapshot = () => state;

/** Someone's new keys, shown in this conversation, wait for the user's word (what cannot be opened here waits for it too). */
export const waitsForKeysIn = (channelId: string) => [...state.changed.values()].some((c) => c.channels.has(channelId));

/** The keys the pin holds are the ones presented. */
export const matches = (pin: Pin, profile: PublicProfile) => pin.e === profile.ecdhPublicKey && pin.r === profile.rsaPublicKey;

/** These users' new keys are accepted (here or on another device): their notices and held counts go. */
export function accepted(userIds: readonly string[]) {
  const changed = new Map(state.changed);
  for (const id of userIds) changed.delete(id);
  publish({ changed, held: new Map([...state.held].filter(([key]) => !userIds.some((id) => key.endsWith(` ${id}`)))) });
}

/** Counts these messages as held back in the channel until their senders' new keys are accepted (ADR 0051). */
export function noteHeld(channelId: string, records: readonly { id: string; senderId: string }[]) {
  const held = new Map(state.held);
  let grew = false;
  for (const { id, senderId } of records) {
    const key = `${channelId} ${senderId}`;
    if (held.get(key)?.has(id)) continue;
    held.set(key, new Set(held.get(key)).add(id));
    grew = true;
  }
  if (grew) publish({ held });
}

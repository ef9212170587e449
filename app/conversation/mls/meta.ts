import type { Roster } from "./roster";

/** Where a device keeps a sealed channel's MLS state, sealed (store.client.ts). */
export const stateEntry = (userId: string, channelId: string) => `chatcrypt.sealed.${userId}.${channelId}`;

/** A commit this device posted whose answer has not come (unanswered.ts), sealed like the state. */
export const unansweredEntry = (userId: string, channelId: string) => `chatcrypt.sealed-unanswered.${userId}.${channelId}`;

/** Where a device keeps a sealed channel's membership facts (runtime.client.ts): not secret. */
export const metaEntry = (userId: string, channelId: string) => `chatcrypt.sealed-meta.${userId}.${channelId}`;

/**
 * The epoch this device joined at (not secret), to tell "before you joined" from "missed"; whether a
 * commit removed it, so that it does not join again by itself (only a new Join by the user does); and
 * in a direct conversation, the participant list it trusts (roster.ts); whether it took in the user's
 * message archive (ADR 0048: once per device, conversation and set of the user's keys).
 */
export type Meta = { joined: number; removed?: boolean; roster?: Roster; archived?: boolean | string; group?: GroupMark };

/**
 * Which of the user's keys took in the archive (`archived`): after a reset without the recovery key the
 * device's earlier reading no longer opens, and the archive (sealed under the new keys) is taken in again.
 */
export const archiveMark = (user: { ecdhPublicKey: string }) => user.ecdhPublicKey.slice(-24);

/**
 * Which MLS group of the channel this device is in (ADR 0049): the generation counts its creator's
 * resets; messages stored before `reset_at` belong to an earlier group (their epochs start again).
 */
export interface GroupMark {
  generation: number;
  reset_by: string;
  reset_at: string;
}

export function loadMeta(userId: string, channelId: string): Meta | null {
  const stored = localStorage.getItem(metaEntry(userId, channelId));
  return stored ? (JSON.parse(stored) as Meta) : null;
}

export const storeMeta = (userId: string, channelId: string, meta: Meta) =>
  localStorage.setItem(metaEntry(userId, channelId), JSON.stringify(meta));

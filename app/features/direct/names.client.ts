/**
 * The group names this device has read (names.ts), kept on the device for the sidebar: the server's
 * list calls a group by its participants, and the page calls it by the name once it has read it.
 * Kept sealed under the user's vault key (like what the device read in the group), bound to the user
 * and the conversation; the page holds the opened ones in memory.
 */
import { api } from "~/lib/api.client";
import { openJson, sealJson } from "~/conversation/keyring/vault.client";

const entry = (userId: string, conversationId: string) => `chatcrypt.direct-name.${userId}.${conversationId}`;
const aad = (userId: string, conversationId: string) => `chatcrypt:direct-name:v1:${userId}:${conversationId}`;
const opened = new Map<string, string>();

export const knownName = (userId: string, conversationId: string) => opened.get(`${userId}:${conversationId}`) ?? null;

export async function rememberName(userId: string, conversationId: string, name: string) {
  opened.set(`${userId}:${conversationId}`, name);
  localStorage.setItem(entry(userId, conversationId), await sealJson(userId, "sealed", name, aad(userId, conversationId)));
}

/** Opens the names this device kept for these conversations (those that do not open are left out). */
export async function loadNames(userId: string, conversationIds: readonly string[]) {
  for (const id of conversationIds) {
    const stored = opened.has(`${userId}:${id}`) ? null : localStorage.getItem(entry(userId, id));
    if (!stored) continue;
    // (the sealed copy the kept name was read from, taken with it: another tab may move both on meanwhile)
    const seen = localStorage.getItem(seenEntry(userId, id));
    const name = await openJson(userId, "sealed", stored, aad(userId, id)).catch(() => null);
    if (typeof name !== "string") continue;
    opened.set(`${userId}:${id}`, name);
    if (seen) seenHere.set(`${userId}:${id}`, seen);
  }
}

const seenEntry = (userId: string, conversationId: string) => `chatcrypt.direct-name-seen.${userId}.${conversationId}`;
/**
 * The sealed copies (ciphertext, as the server keeps them) behind the names this page holds. Per page:
 * the device's record of them is shared by its tabs, and a rename read or made in another tab does not
 * change the name this page shows.
 */
const seenHere = new Map<string, string>();
/** The sealed name this page last opened or sealed for the conversation (or loaded with the name the device kept). */
export const seenSealed = (userId: string, conversationId: string) => seenHere.get(`${userId}:${conversationId}`) ?? null;
export function noteSealed(userId: string, conversationId: string, sealed: string) {
  seenHere.set(`${userId}:${conversationId}`, sealed);
  localStorage.setItem(seenEntry(userId, conversationId), sealed);
}

/** The sealed name the server keeps for the conversation ("" when none). */
export const fetchSealedName = async (conversationId: string) =>
  (await api<{ sealed: string }>(`/api/direct/${conversationId}/name`)).sealed;

/**
 * Keeps the name sealed for `epoch` (the group's current one; 409 when it moved on). `carry`: the name
 * carried on to a new epoch, not a rename: kept only while none is sealed for that epoch and the group
 * is still at it (`kept` false otherwise).
 */
export const storeSealedName = async (conversationId: string, epoch: number, sealed: string, carry = false) =>
  (await api<{ kept: boolean }>(`/api/direct/${conversationId}/name`, { epoch, sealed, ...(carry ? { carry } : {}) })).kept;

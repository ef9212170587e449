/**
 * The decrypted, verified messages of the conversations opened before in this page, so that coming
 * back to one shows it at once (the server's latest page then catches it up: reconcile.ts). Kept in
 * this page's memory only, never in any storage; for one user (another user's sign-in starts empty),
 * for the last few conversations, and forgotten at sign-out.
 */
import type { Annotation } from "~/conversation/messages/annotations";
import type { DecryptedMessage } from "~/conversation/messages/decrypted";
import type { Shown } from "~/conversation/messages/reconcile";

export type KeptHistory = Shown<DecryptedMessage, Annotation>;

/** How many conversations are kept, and how many messages of each (the newest). */
export const KEPT_CONVERSATIONS = 8;
export const KEPT_MESSAGES = 1_000;

let owner: string | null = null;
// oldest use first: the first key is the one to drop
const kept = new Map<string, KeptHistory>();

/** What was shown of this conversation when the user left it, if it is still kept. */
export function recallHistory(userId: string, channelId: string): KeptHistory | undefined {
  if (owner !== userId) return undefined;
  const entry = kept.get(channelId);
  if (entry) {
    kept.delete(channelId);
    kept.set(channelId, entry);
  }
  return entry;
}

/** Keeps what the conversation shows (the newest KEPT_MESSAGES of it), dropping the least recently used beyond KEPT_CONVERSATIONS. */
export function keepHistory(userId: string, channelId: string, shown: KeptHistory) {
  if (owner !== userId) forgetAllHistory();
  owner = userId;
  const trimmed = shown.messages.length > KEPT_MESSAGES;
  const messages = trimmed ? shown.messages.slice(-KEPT_MESSAGES) : shown.messages;
  let annotations = shown.annotations;
  if (trimmed) {
    const ids = new Set(messages.map((m) => m.id));
    annotations = new Map([...shown.annotations].filter(([, a]) => ids.has(a.targetId)));
  }
  kept.delete(channelId);
  kept.set(channelId, { messages, annotations, hasMore: shown.hasMore || trimmed });
  while (kept.size > KEPT_CONVERSATIONS) kept.delete(kept.keys().next().value as string);
}

/** The conversation is gone for this user (left, deleted, cleared): nothing of it is kept. */
export function forgetHistory(channelId: string) {
  kept.delete(channelId);
}

/** Retention: the conversation's kept messages older than `cutoff` (ISO 8601) go, with their annotations. */
export function forgetHistoryBefore(channelId: string, cutoff: string) {
  const entry = kept.get(channelId);
  if (!entry) return;
  const messages = entry.messages.filter((m) => m.created.replace(" ", "T") >= cutoff);
  if (messages.length === entry.messages.length) return;
  const ids = new Set(messages.map((m) => m.id));
  const annotations = new Map([...entry.annotations].filter(([, a]) => ids.has(a.targetId)));
  kept.set(channelId, { messages, annotations, hasMore: entry.hasMore });
}

/** Sign-out: every kept conversation is dropped. */
export function forgetAllHistory() {
  kept.clear();
  owner = null;
}

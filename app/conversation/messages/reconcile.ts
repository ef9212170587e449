/**
 * Catching up a conversation shown from memory (history-cache.client.ts) with the server's latest page:
 * pure, so that what stays, what goes and what comes is decided in one place.
 */
import { compareMessages, mergeMessages, type Ordered } from "~/conversation/messages/merge";

export interface Shown<M extends Ordered, A extends { id: string; targetId: string }> {
  messages: readonly M[];
  annotations: ReadonlyMap<string, A>;
  /** Older messages than the first shown are on the server. */
  hasMore: boolean;
}

/**
 * What the conversation shows once the server's latest page (`fresh`, oldest first, with the edits and
 * reactions of exactly its messages) has arrived, while `shown` was on screen. `before` names the
 * messages and annotations that were shown when the page was asked for: anything that came since (a
 * live message, the user's own) stays. The page replaces every message it covers: messages deleted
 * meanwhile go, edits and reactions are the page's. Older messages stay only where the page joins
 * them (its first message was shown); otherwise the page starts afresh, as on a first open. When the
 * page changes nothing, the lists shown are answered as they were.
 */
export function reconcileLatest<M extends Ordered, A extends { id: string; targetId: string }>(
  shown: Shown<M, A>,
  before: { messages: ReadonlySet<string>; annotations: ReadonlySet<string> },
  fresh: Shown<M, A>,
  merge: (current: readonly M[], incoming: readonly M[]) => M[] = mergeMessages,
): Shown<M, A> & { messages: M[] } {
  const first = fresh.messages[0];
  const joins = fresh.hasMore && first !== undefined && before.messages.has(first.id);
  const older = joins ? shown.messages.filter((m) => before.messages.has(m.id) && compareMessages(m, first) < 0) : [];
  const arrived = shown.messages.filter((m) => !before.messages.has(m.id));
  const olderIds = new Set(older.map((m) => m.id));
  const annotations = new Map<string, A>();
  for (const a of shown.annotations.values()) if (olderIds.has(a.targetId) || !before.annotations.has(a.id)) annotations.set(a.id, a);
  for (const a of fresh.annotations.values()) annotations.set(a.id, a);
  // A message the page shows and the page answers too: what the page learnt of it meanwhile stays (an
  // attachment or preview that arrived live after the page was read; `merge` keeps both copies' parts).
  const shownById = new Map(shown.messages.map((m) => [m.id, m]));
  const covered = fresh.messages.map((m) => {
    const held = shownById.get(m.id);
    return held && held !== m ? (merge([held], [m])[0] ?? m) : m;
  });
  const messages = merge([...older, ...covered], arrived);
  // Nothing changed (a catch-up that found nothing): the lists shown stay, and nothing is drawn again.
  const same = messages.length === shown.messages.length && messages.every((m, i) => m === shown.messages[i]);
  const sameAnnotations =
    annotations.size === shown.annotations.size && [...annotations].every(([id, a]) => shown.annotations.get(id) === a);
  return {
    messages: same ? (shown.messages as M[]) : messages,
    annotations: sameAnnotations ? (shown.annotations as Map<string, A>) : annotations,
    hasMore: older.length > 0 ? shown.hasMore : fresh.hasMore,
  };
}

/**
 * The messages of conversation `channelId` (all of them: the same list) among `messages`: a list held
 * while the page switches conversations never shows another conversation's messages.
 */
export function ofConversation<M extends { channelId: string }>(messages: readonly M[], channelId: string | undefined): readonly M[] {
  return messages.every((m) => m.channelId === channelId) ? messages : messages.filter((m) => m.channelId === channelId);
}

/**
 * What is shown without the messages, edits and reactions the page was told were deleted: a page
 * answered before a deletion (asked for before it, merged after it) cannot bring them back. Unchanged
 * (the same objects) when none of them is there.
 */
export function withoutRemoved<M extends { id: string }, A>(
  messages: readonly M[],
  annotations: ReadonlyMap<string, A>,
  removed: ReadonlySet<string>,
): { messages: readonly M[]; annotations: ReadonlyMap<string, A> } {
  if (removed.size === 0) return { messages, annotations };
  const kept = messages.some((m) => removed.has(m.id)) ? messages.filter((m) => !removed.has(m.id)) : messages;
  let left = annotations;
  for (const id of annotations.keys()) {
    if (!removed.has(id)) continue;
    if (left === annotations) left = new Map(annotations);
    (left as Map<string, A>).delete(id);
  }
  return { messages: kept, annotations: left };
}

/**
 * What the page shows that the server's latest page of conversation `channelId` (`page`: its records,
 * messages and the edits and reactions of its messages) no longer has, among what was shown when the
 * page was asked for: deleted meanwhile. Only what the page covers counts (that conversation's
 * messages from the page's oldest on, and their edits and reactions; everything when it is the whole
 * conversation): messages of another conversation still held while the page switches are never named.
 */
export function deletedMeanwhile<M extends Ordered & { channelId: string }, A extends { id: string; targetId: string }>(
  channelId: string,
  shown: { messages: readonly M[]; annotations: ReadonlyMap<string, A> },
  before: { messages: ReadonlySet<string>; annotations: ReadonlySet<string> },
  page: { records: readonly (Ordered & { kind?: string })[]; hasMore: boolean },
): string[] {
  const ids = new Set(page.records.map((r) => r.id));
  const oldest = page.records.filter((r) => !r.kind).sort(compareMessages)[0];
  if (page.hasMore && !oldest) return [];
  const covered = shown.messages.filter(
    (m) => m.channelId === channelId && before.messages.has(m.id) && (!page.hasMore || compareMessages(m, oldest) >= 0),
  );
  const coveredIds = new Set(covered.map((m) => m.id));
  const gone = covered.filter((m) => !ids.has(m.id)).map((m) => m.id);
  for (const a of shown.annotations.values())
    if (before.annotations.has(a.id) && coveredIds.has(a.targetId) && !ids.has(a.id)) gone.push(a.id);
  return gone;
}

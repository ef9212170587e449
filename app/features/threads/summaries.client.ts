import { useSyncExternalStore } from "react";
import type { DecryptedMessage } from "~/features/messages/messages.client";
import type { ThreadSummary } from "~/conversation/messages/types";
import { emit, on } from "~/lib/events";

/**
 * What the channel shows under each thread's root: "3 replies", the last one's time, who wrote them.
 * A page of history brings its roots' summaries (counted by the server, which pages threads by
 * root); replies seen live are added to them. Replies arriving live are also handed to the open
 * thread panel (`subscribeReplies`).
 */
interface Entry {
  replies: number;
  last: string;
  people: string[];
  /** Replies counted here, and the server's latest (every reply up to it is in its count). */
  counted: Set<string>;
  known: string;
  /** Replies deleted since (counted one less each). */
  gone: Set<string>;
}

const entries = new Map<string, Entry>();
/** Roots whose thread the user takes part in: they wrote the root or a reply. */
const mine = new Set<string>();
let version = 0;

function changed() {
  version += 1;
  emit("thread-summaries:changed");
}

/** A page's summaries (they replace what was known of those roots); `userId` is the reader. */
export function summariesArrived(summaries: readonly ThreadSummary[], userId: string) {
  if (summaries.length === 0) return;
  for (const s of summaries) {
    entries.set(s.root, { replies: s.replies, last: s.last, people: s.people, counted: new Set(), known: s.last, gone: new Set() });
    if (s.people.includes(userId)) mine.add(s.root);
  }
  changed();
}

/** Messages shown in the channel: the user's own may become roots they take part in. */
export function rootsArrived(messages: readonly DecryptedMessage[]) {
  for (const m of messages) if (m.own && !m.thread) mine.add(m.id);
}

/** Whether this message is the first of a thread with replies (as far as this page knows). */
export const hasReplies = (rootId: string) => (entries.get(rootId)?.replies ?? 0) > 0;

/** Whether a reply in this root's thread is for the reader (they wrote the root or a reply). */
export const takesPart = (rootId: string) => mine.has(rootId);

/**
 * A reply arrived live naming who takes part in its thread (the server knows who wrote where): the
 * reader among them takes part, also in a thread this page has not read (after a reload, on another
 * device, a root written elsewhere).
 */
export function threadPeopleArrived(reply: { thread?: string; threadPeople?: string[] }, userId: string) {
  if (reply.thread && reply.threadPeople?.includes(userId)) mine.add(reply.thread);
}

/** A reply seen on this page (sent here, or live): counted once under its root, and handed to the open thread. */
export function replyArrived(reply: DecryptedMessage) {
  if (!reply.thread) return;
  if (reply.own) mine.add(reply.thread);
  const entry = entries.get(reply.thread) ?? {
    replies: 0,
    last: "",
    people: [],
    counted: new Set<string>(),
    known: "",
    gone: new Set<string>(),
  };
  // the server's count covers every reply up to its latest; one seen again (in a page, or live twice) counts once
  if (!entry.counted.has(reply.id) && !entry.gone.has(reply.id) && reply.created > entry.known) {
    entry.counted.add(reply.id);
    entries.set(reply.thread, {
      ...entry,
      replies: entry.replies + 1,
      last: reply.created > entry.last ? reply.created : entry.last,
      people: entry.people.includes(reply.senderId) ? entry.people : [...entry.people, reply.senderId],
    });
    changed();
  }
  emit("thread:reply", reply);
}

/**
 * A reply deleted (by its sender, an administrator, the retention sweep): its root's thread counts one
 * less, once (a reply already gone, or never counted in a summary here, changes nothing twice). The
 * last reply's time stays as it was until the root's summary is read again.
 */
export function replyDeleted(rootId: string, replyId: string) {
  const entry = entries.get(rootId);
  if (!entry || entry.gone.has(replyId) || entry.replies === 0) return;
  entry.counted.delete(replyId);
  entry.gone.add(replyId);
  entries.set(rootId, { ...entry, replies: entry.replies - 1 });
  changed();
}

export const subscribeReplies = (listener: (reply: DecryptedMessage) => void) => on("thread:reply", listener);

const subscribe = (listener: () => void) => on("thread-summaries:changed", listener);

/** The summary of one root's thread (null without replies). */
export function useThreadSummary(rootId: string): { replies: number; last: string; people: string[] } | null {
  useSyncExternalStore(
    subscribe,
    () => version,
    () => version,
  );
  const entry = entries.get(rootId);
  return entry && entry.replies > 0 ? { replies: entry.replies, last: entry.last, people: entry.people } : null;
}

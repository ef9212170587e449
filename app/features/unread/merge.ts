import type { UnreadCount } from "~/features/unread/types";

/** A message of someone else that the page counted as it arrived live, numbered in order of arrival. */
export interface Arrival {
  channelId: string;
  created: string;
  mention: boolean;
  seq: number;
}

/**
 * The live arrivals a load of the counts did not count: those that arrived after the load began
 * (what arrived before was stored before the server counted) and that are newer than the newest
 * message the server counted in that channel. A message can arrive live before or after the server
 * answers, and the server's answer may or may not include it: its `created` decides, never the order.
 */
export function uncounted(arrivals: readonly Arrival[], loaded: UnreadCount | undefined, startedAfter: number): Arrival[] {
  return arrivals.filter((a) => a.seq > startedAfter && (!loaded?.newest || a.created > loaded.newest));
}

/** A channel's count after a load: the server's, and what arrived live that it did not count. */
export function mergedCount(arrivals: readonly Arrival[], loaded: UnreadCount | undefined, startedAfter: number) {
  const extra = uncounted(arrivals, loaded, startedAfter);
  return { count: (loaded?.count ?? 0) + extra.length, mentions: extra.filter((a) => a.mention).length };
}

/**
 * A read position just before a message created at `created` (PocketBase's "YYYY-MM-DD HH:MM:SS.sssZ",
 * compared as text): the conversation's first unread message when it arrived live with nothing unread
 * before it, so that the "New messages" line goes above it (the line follows the first message after
 * the read position).
 */
export function positionBefore(created: string): string {
  const at = Date.parse(created.replace(" ", "T"));
  if (Number.isNaN(at)) return created.slice(0, -1);
  return new Date(at - 1).toISOString().replace("T", " ");
}

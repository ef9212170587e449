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

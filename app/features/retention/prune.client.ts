/**
 * Every device drops what the policy no longer keeps (docs/decisions/0065-retention.md): open pages
 * lose swept messages by their deletion events; this drops from this device's search index and history
 * cache the messages older than the period, including those swept while the device was away. With
 * "keep pinned" the server keeps some old messages, which only it can tell apart: nothing is dropped here
 * and the deletion events (and the pages' reconciliation with the server) do it.
 */
import { forgetHistoryBefore } from "~/features/messages/history-cache.client";
import type { SearchIndex } from "~/features/search/engine";
import { cutoffOf, type RetentionPolicy } from "~/features/retention/retention";

/** Drops expired messages from the index and the history cache; answers how many left the index. */
export function dropExpired(index: SearchIndex | null, policy: RetentionPolicy, now = Date.now()): number {
  if (policy.keepPinned) return 0;
  let dropped = 0;
  for (const [channelId, days] of Object.entries(policy.channels)) {
    const cutoff = cutoffOf(days, now);
    if (!cutoff) continue;
    forgetHistoryBefore(channelId, cutoff);
    if (index) dropped += index.dropBefore(channelId, cutoff);
  }
  return dropped;
}

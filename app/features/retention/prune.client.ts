/**
 * Every device drops what the policy no longer keeps (docs/decisions/0065-retention.md): open pages
 * lose swept messages by their deletion events; this drops from this device's search index and history
 * cache the messages older than the period, including those swept while the device was away. With
 * "keep pinned" the server keeps some old messages, which only it can tell apart: nothing is dropped here
 * and the deletion events (and the pages' reconciliation with the server) do it. The clock is the later
 * of this device's and the last sweep's (ADR 81): what a sweep removed leaves this device even when its
 * clock is behind the server's, or when the page reloaded before it saved its index without them.
 */
import { forgetHistoryBefore } from "~/conversation/messages/history-cache.client";
import type { SearchIndex } from "~/features/search/engine";
import { cutoffOf, type RetentionPolicy } from "~/features/retention/retention";

/** Drops expired messages from the index and the history cache; answers how many left the index. */
export function dropExpired(index: SearchIndex | null, policy: RetentionPolicy, now = Date.now()): number {
  if (policy.keepPinned) return 0;
  const swept = policy.sweptAt ? Date.parse(policy.sweptAt) : NaN;
  if (swept > now) now = swept;
  let dropped = 0;
  for (const [channelId, days] of Object.entries(policy.channels)) {
    const cutoff = cutoffOf(days, now);
    if (!cutoff) continue;
    forgetHistoryBefore(channelId, cutoff);
    if (index) dropped += index.dropBefore(channelId, cutoff);
  }
  return dropped;
}

/**
 * Live messages of a conversation the page's list does not have yet: one just started with the user,
 * whose membership change and first message arrive together while the list is still reloading. They
 * are kept for a minute (at most `max`) and handed back once the list has their conversation, so that
 * the first direct message still notifies (and offers notifications, ADR 0067).
 */
export function arrivalsAhead<T extends { channelId: string }>(max = 50, keepMs = 60_000) {
  let kept: { item: T; at: number }[] = [];
  return {
    keep(item: T) {
      kept.push({ item, at: Date.now() });
      if (kept.length > max) kept = kept.slice(-max);
    },
    /** The kept items whose conversation is now known, taken out; those kept longer than `keepMs` go. */
    take(known: (channelId: string) => boolean): T[] {
      const now = Date.now();
      const ready = kept.filter((k) => known(k.item.channelId)).map((k) => k.item);
      kept = kept.filter((k) => !known(k.item.channelId) && now - k.at < keepMs);
      return ready;
    },
  };
}

import { useCallback, useEffect, useRef, useState } from "react";
import { api } from "~/lib/api.client";
import { playChime } from "~/features/notifications/sound.client";
import type { FeedItem, FeedResponse } from "~/features/news/feed";

const HIGHLIGHT_MS = 6_000;

/** Fetches the feed when the sidebar opens and every `refreshMs` while it stays open; new items glow for 6 s. */
export function useNewsFeed(open: boolean, refreshMs: number) {
  const [items, setItems] = useState<FeedItem[]>([]);
  const [configured, setConfigured] = useState(true);
  const [loading, setLoading] = useState(false);
  const [failed, setFailed] = useState(false);
  const [highlighted, setHighlighted] = useState<ReadonlySet<string>>(new Set());
  const seen = useRef<Set<string> | null>(null);

  const load = useCallback(async () => {
    setLoading(true);
    try {
      const feed = await api<FeedResponse>("/api/news");
      setConfigured(feed.configured);
      setFailed(Boolean(feed.error));
      if (feed.error) console.warn("News feed:", feed.error);
      if (feed.error && feed.items.length === 0) return;
      const fresh = seen.current ? feed.items.filter((i) => !seen.current!.has(i.id)).map((i) => i.id) : [];
      seen.current = new Set([...(seen.current ?? []), ...feed.items.map((i) => i.id)]);
      setItems(feed.items);
      if (fresh.length > 0) {
        playChime();
        setHighlighted((prev) => new Set([...prev, ...fresh]));
        setTimeout(() => setHighlighted((prev) => new Set([...prev].filter((id) => !fresh.includes(id)))), HIGHLIGHT_MS);
      }
    } catch (error) {
      console.warn("News feed could not be loaded", error);
      setFailed(true);
    } finally {
      setLoading(false);
    }
  }, []);

  // Asked once: a server without a feed shows no News Feed button at all.
  useEffect(() => {
    let stop = false;
    api<FeedResponse>("/api/news?check=1")
      .then((feed) => !stop && setConfigured(feed.configured))
      .catch(() => undefined);
    return () => {
      stop = true;
    };
  }, []);

  useEffect(() => {
    if (!open) return;
    void load();
    const timer = setInterval(() => void load(), refreshMs);
    return () => clearInterval(timer);
  }, [open, refreshMs, load]);

  return { items, configured, loading, failed, highlighted };
}

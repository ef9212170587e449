import { requestThreadOpen } from "~/features/threads/open.client";
import { MESSAGE_GONE, requestOpenAt } from "~/features/messages/open-at.client";
import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import type { SessionUser } from "~/lib/session-user";
import type { Channel } from "~/conversation/channels/types";
import type { DecryptedMessage } from "~/features/messages/messages.client";
import type { EncryptedMessage } from "~/conversation/messages/types";
import type { SearchHit, SearchIndex } from "~/features/search/engine";
import type { Notify } from "~/ui/Toast";
import { toDoc } from "~/features/search/docs";
import { isEmptyQuery, parseQuery } from "~/features/search/query";
import { dropExpired } from "~/features/retention/prune.client";
import { onRetention } from "~/features/retention/retention.client";
import { useIndexWanted } from "~/features/search/useIndexWanted.client";

/** How long after the last keystroke in the composer the backfill waits. */
const TYPING_PAUSE_MS = 2_000;
const SAVE_DELAY_MS = 1_000;
const RETRY_MS = 30_000;
/** How many live messages wait for the index to load (the rest come with the backfill, thread replies aside). */
const EARLY_MAX = 2_000;

export interface OpenAt {
  channelId: string;
  messageId: string;
  /** The message's time: older history back to it is loaded at once. */
  created: string;
  /** Called when the message is no longer there (deleted while this browser was away): it leaves the index, and the page says so. */
  missing: () => void;
  /** A new value for every request, so opening the same message twice works. */
  key: number;
}

interface Parts {
  channels: Channel[] | null;
  /** The open channel's decrypted messages (edits applied, files and previews attached). */
  messages: readonly DecryptedMessage[];
  select: (channelId: string) => void;
  notify: Notify;
}

// The index, its persistence and the backfill are loaded when the index is first needed (ADR 0014).
const loadModules = () =>
  Promise.all([import("~/features/search/engine"), import("~/features/search/store.client"), import("~/features/search/backfill.client")]);
type Modules = Awaited<ReturnType<typeof loadModules>>;

/**
 * Local encrypted message search (issue 14): every message this page decrypts goes into an index kept
 * on this device only (IndexedDB, AES-GCM under the "search" vault key); a background backfill pages
 * through each channel's whole history. Queries never leave the page.
 */
export function useSearch(user: SessionUser, parts: Parts) {
  const [ready, setReady] = useState(false);
  const [progress, setProgress] = useState({ indexed: 0, total: 0 });
  const [query, setQuery] = useState("");
  const [revision, setRevision] = useState(0);
  const [openAt, setOpenAt] = useState<OpenAt | null>(null);
  const [attempt, setAttempt] = useState(0);
  const index = useRef<SearchIndex | null>(null);
  const modules = useRef<Modules | null>(null);
  const typingUntil = useRef(0);
  const saveTimer = useRef<ReturnType<typeof setTimeout>>();
  const partsRef = useRef(parts);
  partsRef.current = parts;

  const refresh = useCallback(() => {
    const ix = index.current;
    if (!ix) return;
    let total = 0;
    for (const chunk of ix.chunks.values()) {
      const count = chunk.index.documentCount;
      total += chunk.meta.complete ? count : Math.max(chunk.meta.total, count);
    }
    setProgress({ indexed: ix.count(), total });
    setRevision((r) => r + 1);
  }, []);

  /** Writes the chunks that changed since the last save (one record per channel). */
  const flush = useCallback(async () => {
    const ix = index.current;
    const store = modules.current?.[1];
    if (!ix || !store) return;
    const dirty = [...ix.dirty];
    ix.dirty.clear();
    for (const channelId of dirty) await store.saveChunk(user.id, channelId, ix.chunks.get(channelId)?.serialize() ?? null);
  }, [user.id]);

  // Saved a second after the first unsaved change, not after the last: a stream of changes (a retention
  // sweep's deletions) is saved every second, not only once it stops.
  const changed = useCallback(() => {
    refresh();
    if (saveTimer.current !== undefined) return;
    saveTimer.current = setTimeout(() => {
      saveTimer.current = undefined;
      void flush().catch((error) => console.warn("Could not save the search index", error));
    }, SAVE_DELAY_MS);
  }, [refresh, flush]);

  const { wanted, want, tries, failed, setFailed } = useIndexWanted(parts.messages.length > 0);
  const onQuery = useCallback(
    (next: string) => {
      want();
      setQuery(next);
    },
    [want],
  );

  // Load the saved index (decrypting each channel's chunk), or start an empty one.
  useEffect(() => {
    if (!wanted) return;
    let cancelled = false;
    setFailed(false);
    (async () => {
      const loaded = await loadModules();
      const [engine, store] = loaded;
      const ix = new engine.SearchIndex();
      const saved = await store.loadChunks(user.id).catch(() => new Map<string, string>());
      for (const [channelId, json] of saved) {
        try {
          ix.chunks.set(channelId, engine.Chunk.load(channelId, json));
        } catch {
          // a chunk that does not load is indexed again
        }
      }
      if (cancelled) return;
      modules.current = loaded;
      index.current = ix;
      setReady(true);
      refresh();
    })().catch((error) => {
      console.warn("Could not open the search index", error);
      if (!cancelled) setFailed(true);
    });
    return () => {
      cancelled = true;
      clearTimeout(saveTimer.current);
      saveTimer.current = undefined;
    };
  }, [user.id, refresh, wanted, tries, setFailed]);

  // The composer's keystrokes pause the backfill.
  useEffect(() => {
    const onInput = (event: Event) => {
      if (!(event.target instanceof HTMLElement) || event.target.closest("[data-search]")) return;
      typingUntil.current = Date.now() + TYPING_PAUSE_MS;
    };
    document.addEventListener("input", onInput, true);
    return () => document.removeEventListener("input", onInput, true);
  }, []);

  // Backfill every channel the user can read; a new channel list starts a new run where the last stopped.
  const channelIds = (parts.channels ?? []).map((c) => c.id).join(",");
  useEffect(() => {
    const backfill = modules.current?.[2].backfill;
    const ix = index.current;
    if (!ready || !backfill || !ix || !channelIds) return;
    let stopped = false;
    let retry: ReturnType<typeof setTimeout> | undefined;
    const channels = partsRef.current.channels ?? [];
    // Channels the user left or deleted leave the index.
    for (const id of ix.chunks.keys()) if (!channels.some((c) => c.id === id)) ix.clearChannel(id);
    if (ix.dirty.size) changed();
    backfill({
      user,
      index: ix,
      channels,
      paused: () => Date.now() < typingUntil.current,
      stopped: () => stopped,
      onPage: async () => {
        if (stopped) return;
        refresh();
        await flush();
      },
    }).catch((error) => {
      // Offline or the server away: the next attempt goes on where this one stopped.
      console.warn("Could not index older messages", error);
      if (!stopped) retry = setTimeout(() => setAttempt((n) => n + 1), RETRY_MS);
    });
    return () => {
      stopped = true;
      clearTimeout(retry);
    };
  }, [ready, channelIds, attempt, user, refresh, flush, changed]);

  // The open channel as the page shows it: edits applied, file names and preview titles decrypted.
  useEffect(() => {
    if (!ready || !index.current || parts.messages.length === 0) return;
    index.current.upsert(parts.messages.filter((m) => !m.unreadable).map(toDoc));
    if (index.current.dirty.size > 0) changed();
  }, [ready, parts.messages, changed]);

  // Retention: messages older than the period leave this device's index and history cache (ADR 0065).
  useEffect(
    () =>
      onRetention((policy) => {
        if (dropExpired(index.current, policy) > 0) changed();
      }),
    [ready, changed],
  );

  // Live messages that arrive before the index has loaded wait for it: the backfill pages through the
  // channels' flow, not through threads, so a thread reply missed here would never be found.
  const early = useRef<EncryptedMessage[]>([]);
  const indexLive = useCallback(
    async (message: EncryptedMessage) => {
      const channel = partsRef.current.channels?.find((c) => c.id === message.channelId);
      const ix = index.current;
      const indexRecords = modules.current?.[2].indexRecords;
      if (!ix || !indexRecords) {
        if (early.current.length < EARLY_MAX) early.current.push(message);
        return;
      }
      if (!channel) return;
      await indexRecords(user, ix, channel, [message]);
      changed();
    },
    [user, changed],
  );
  useEffect(() => {
    if (!ready) return;
    const waiting = early.current;
    early.current = [];
    for (const message of waiting) void indexLive(message).catch((error) => console.warn("Could not index a message", error));
  }, [ready, indexLive]);

  /** Live events of every channel: new messages and edits go in, deleted messages go out. */
  const live = useMemo(
    () => ({
      message: indexLive,
      deleted: (messageId: string) => {
        early.current = early.current.filter((m) => m.id !== messageId);
        index.current?.remove(messageId);
        changed();
      },
      cleared: (channelId: string) => {
        early.current = early.current.filter((m) => m.channelId !== channelId);
        const ix = index.current;
        if (!ix) return;
        ix.clearChannel(channelId);
        ix.chunk(channelId).meta = { complete: true, total: 0 };
        changed();
      },
    }),
    [indexLive, changed],
  );

  const hits: SearchHit[] = useMemo(() => {
    const parsed = parseQuery(query);
    if (!ready || !index.current || isEmptyQuery(parsed) || revision < 0) return [];
    const names = new Map((partsRef.current.channels ?? []).map((c) => [c.id, c.name]));
    return index.current.search(parsed, { channel: (id) => names.get(id) });
  }, [query, ready, revision]);

  const open = useCallback(
    (hit: SearchHit) => {
      // a reply that is only in its thread opens the thread
      if (hit.thread) requestThreadOpen(hit.channelId, hit.thread);
      if (!hit.thread) requestOpenAt(hit.channelId, hit.id);
      partsRef.current.select(hit.channelId);
      if (hit.thread) return;
      const missing = () => {
        live.deleted(hit.id);
        partsRef.current.notify(MESSAGE_GONE, "error");
      };
      setOpenAt((prev) => ({ channelId: hit.channelId, messageId: hit.id, created: hit.created, missing, key: (prev?.key ?? 0) + 1 }));
    },
    [live],
  );

  // (as the sidebar names it: "# team" for a channel, "@ bob" for a direct conversation)
  const channelTitle = useCallback((id: string) => {
    const channel = partsRef.current.channels?.find((c) => c.id === id);
    return channel ? `${channel.direct ? "@" : "#"} ${channel.name}` : "";
  }, []);

  return {
    panel: { ready, failed, query, onQuery, onFocus: want, hits, progress, onOpen: open, channelTitle },
    openAt,
    live,
  };
}

import { useCallback, useEffect, useRef, useState } from "react";
import { api } from "~/lib/api.client";
import type { SessionUser } from "~/lib/session-user";
import type { Channel } from "~/conversation/channels/types";
import { fetchMessages, type DecryptedMessage } from "~/features/messages/messages.client";
import { decryptMessages } from "~/conversation/messages/open.client";
import { mentions } from "~/features/messages/text";
import { afterConversationShown } from "~/features/messages/conversation-shown.client";
import type { UnreadCount } from "~/features/unread/types";
import { mergedCount, positionBefore, type Arrival } from "~/features/unread/merge";
import { useUnreadBadge } from "~/features/pwa/useUnreadBadge.client";
import { readSaver } from "~/features/unread/read-saver.client";

interface Counts {
  count: number;
  mentions: number;
}

const MENTION_SCAN = 100;
/** The scan decrypts this many messages at a time, and waits between two for a conversation opening. */
const SCAN_SLICE = 10;
const isVisible = () => typeof document !== "undefined" && document.visibilityState === "visible";

/**
 * Unread counts per channel (from the server, so they follow the user across devices), mentions of
 * the user among them (decrypted here), the "New messages" position of the open channel, and the
 * total in the tab title and on the installed app's icon. The open channel is marked read while the page is visible.
 */
export function useUnread(user: SessionUser, channels: Channel[] | null, open: Channel | null, openMessages: DecryptedMessage[]) {
  const [counts, setCounts] = useState<ReadonlyMap<string, Counts>>(new Map());
  const [unreadAfter, setUnreadAfter] = useState<string | null>(null);
  const since = useRef(new Map<string, string>());
  // The mentions found among each channel's unread messages, and which unread messages those were.
  const scanned = useRef(new Map<string, { since: string; count: number; mentions: number }>());
  const openRef = useRef(open);
  openRef.current = open;
  const countsRef = useRef(counts);
  countsRef.current = counts;
  // Live arrivals, numbered: a load of the counts adds those its answer did not count (merge.ts).
  const arrivals = useRef<Arrival[]>([]);
  const arrivalSeq = useRef(0);
  // Loads in order: an answer is applied only when no later load's answer has been.
  const loads = useRef({ started: 0, applied: 0 });

  const set = useCallback((channelId: string, next: Counts) => {
    setCounts((current) => new Map(current).set(channelId, next));
  }, []);

  /** Loads every channel's count, then counts mentions among the unread messages in the background. */
  const refresh = useCallback(async () => {
    if (!channels) return;
    let unread: UnreadCount[];
    const load = ++loads.current.started;
    const startedAfter = arrivalSeq.current;
    try {
      ({ unread } = await api<{ unread: UnreadCount[] }>("/api/unread"));
    } catch (error) {
      console.warn("Unread counts could not be loaded", error);
      return;
    }
    // (an answer that left before a newer one was applied is older than what is shown)
    if (load < loads.current.applied) return;
    loads.current.applied = load;
    // mentions counted before among the same unread messages (same read position, same count) stand
    const known = (u: UnreadCount) => {
      const s = scanned.current.get(u.channelId);
      return s && s.since === u.since && s.count === u.count ? s.mentions : undefined;
    };
    const loaded = new Map(unread.map((u) => [u.channelId, u]));
    // what arrived before this load began was stored before the server counted: no longer needed
    arrivals.current = arrivals.current.filter((a) => a.seq > startedAfter);
    const next = new Map<string, Counts>();
    for (const id of new Set([...loaded.keys(), ...arrivals.current.map((a) => a.channelId)])) {
      const u = loaded.get(id);
      if (u) since.current.set(id, u.since);
      // a message that arrived while the counts were loading is counted once, whether the answer has it or not
      const merged = mergedCount(arrivals.current, u, startedAfter);
      const counts = { count: merged.count, mentions: (u ? (known(u) ?? 0) : 0) + merged.mentions };
      next.set(id, id === openRef.current?.id && isVisible() ? { count: 0, mentions: 0 } : counts);
    }
    setCounts(next);
    for (const u of unread) {
      const channel = channels.find((c) => c.id === u.channelId);
      if (!channel || u.channelId === openRef.current?.id || known(u) !== undefined) continue;
      // (not while a conversation is loading its first page: it goes first)
      await afterConversationShown();
      const page = await fetchMessages(channel.id, { after: u.since, limit: MENTION_SCAN, profiles: true }).catch(() => null);
      if (!page) continue;
      // (nor is it decrypted while one does: a conversation opened meanwhile goes first, even mid-page)
      let found = 0;
      try {
        for (let at = 0; at < page.messages.length; at += SCAN_SLICE) {
          await afterConversationShown();
          const slice = await decryptMessages(user, channel, page.messages.slice(at, at + SCAN_SLICE));
          found += slice.filter((m) => !m.own && mentions(m.text, user.username)).length;
        }
      } catch (error) {
        // a conversation this device cannot open (its group refused it): its count stands without
        // mentions, and the other conversations are still looked through
        console.warn("Mentions could not be counted in a conversation", error);
        continue;
      }
      scanned.current.set(u.channelId, { since: u.since, count: u.count, mentions: found });
      if (found)
        setCounts((current) => new Map(current).set(channel.id, { count: current.get(channel.id)?.count ?? u.count, mentions: found }));
    }
  }, [channels, user]);

  useEffect(() => {
    void refresh();
  }, [refresh]);

  /** A new message of another user (created at `created`) in a channel that is not open (or not visible). */
  const arrived = useCallback(
    (channelId: string, created: string, message: DecryptedMessage | null) => {
      if (channelId === openRef.current?.id && isVisible()) return;
      const mention = Boolean(message && mentions(message.text, user.username));
      arrivals.current.push({ channelId, created, mention, seq: ++arrivalSeq.current });
      setCounts((current) => {
        const before = current.get(channelId) ?? { count: 0, mentions: 0 };
        // the first unread message there: what came before it was read (the "New messages" line goes above it)
        if (before.count === 0) since.current.set(channelId, positionBefore(created));
        return new Map(current).set(channelId, { count: before.count + 1, mentions: before.mentions + (mention ? 1 : 0) });
      });
    },
    [user.username],
  );

  /**
   * The user's count in a channel changed other than by a new message (they read it on another
   * device, or an unread message was deleted): the counts are read again, unless it shows none.
   */
  const changedElsewhere = useCallback(
    (channelId: string) => {
      if ((countsRef.current.get(channelId)?.count ?? 0) > 0) void refresh();
    },
    [refresh],
  );

  // Opening a channel: the divider goes above the first message after the read position.
  const openId = open?.id;
  useEffect(() => {
    if (!openId) return setUnreadAfter(null);
    const had = countsRef.current.get(openId)?.count ?? 0;
    setUnreadAfter(had > 0 ? (since.current.get(openId) ?? null) : null);
  }, [openId]);

  // While the open channel is visible, its newest message is read.
  const [saver, setSaver] = useState<ReturnType<typeof readSaver> | null>(null);
  useEffect(() => {
    const started = readSaver();
    setSaver(started);
    return started.stop;
  }, []);
  const newest = openMessages.length ? openMessages[openMessages.length - 1].created : null;
  useEffect(() => {
    if (!openId || !newest || !saver) return;
    const mark = () => {
      if (!isVisible()) return;
      set(openId, { count: 0, mentions: 0 });
      since.current.set(openId, newest);
      void saver.save(openId, newest);
    };
    mark();
    document.addEventListener("visibilitychange", mark);
    window.addEventListener("focus", mark);
    return () => {
      document.removeEventListener("visibilitychange", mark);
      window.removeEventListener("focus", mark);
    };
  }, [openId, newest, set, saver]);

  const total = [...counts.values()].reduce((sum, c) => sum + c.count, 0);
  const mentioned = [...counts.values()].reduce((sum, c) => sum + c.mentions, 0);
  useUnreadBadge(total);

  return { counts, total: { count: total, mentions: mentioned }, unreadAfter, arrived, changedElsewhere, refresh };
}

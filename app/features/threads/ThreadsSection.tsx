import { useEffect, useState } from "react";
import { api } from "~/lib/api.client";
import type { Channel } from "~/conversation/channels/types";
import { onThreadsChanged, seenElsewhere, threadSeenAt } from "~/features/threads/seen.client";
import type { RecentThread } from "~/features/threads/types";

interface UnreadThread {
  root: string;
  channel: Channel;
  unread: number;
  last: string;
}

/** The threads the user takes part in (wrote the root or a reply) with replies from others since they last looked. */
export function unreadThreads(threads: readonly RecentThread[], channels: readonly Channel[], userId: string): UnreadThread[] {
  const byId = new Map(channels.map((c) => [c.id, c]));
  return threads
    .flatMap((t) => {
      const channel = byId.get(t.channelId);
      const takesPart = t.rootSender === userId || t.replies.some((r) => r.sender === userId);
      const seen = threadSeenAt(t.root);
      const unread = t.replies.filter((r) => r.sender !== userId && r.created > seen);
      return channel && takesPart && unread.length > 0 ? [{ root: t.root, channel, unread: unread.length, last: unread[0].created }] : [];
    })
    .sort((a, b) => (a.last < b.last ? 1 : -1));
}

const READ_AGAIN_MS = 800;

/** "Threads" in the sidebar: the unread threads, each opening its conversation at the thread. */
export function ThreadsSection({
  channels,
  userId,
  onOpen,
}: {
  channels: readonly Channel[] | null;
  userId: string;
  onOpen: (channel: Channel, root: string) => void;
}) {
  const [threads, setThreads] = useState<RecentThread[]>([]);
  const [open, setOpen] = useState(false);
  const [reads, setReads] = useState(0);
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const stop = onThreadsChanged(() => {
      clearTimeout(timer);
      timer = setTimeout(() => setReads((n) => n + 1), READ_AGAIN_MS);
    });
    return () => {
      clearTimeout(timer);
      stop();
    };
  }, []);
  useEffect(() => {
    let current = true;
    api<{ threads: RecentThread[]; seen?: Record<string, string> }>("/api/threads").then(
      (found) => {
        if (!current) return;
        seenElsewhere(found.seen ?? {});
        setThreads(found.threads);
      },
      () => undefined,
    );
    return () => void (current = false);
  }, [reads, channels]);
  const list = channels ? unreadThreads(threads, channels, userId) : [];
  return (
    <section className="threads-section" aria-label="Threads">
      <button type="button" className="link-button threads-toggle" aria-expanded={open} onClick={() => setOpen((o) => !o)}>
        Threads{list.length > 0 ? ` (${list.length} unread)` : ""}
      </button>
      {open &&
        (list.length === 0 ? (
          <p className="channel-empty">No unread threads</p>
        ) : (
          <ul className="channel-list">
            {list.map((t) => (
              <li key={t.root}>
                <button type="button" className="link-button" onClick={() => onOpen(t.channel, t.root)}>
                  {t.channel.direct ? `@ ${t.channel.name}` : `# ${t.channel.name}`}: {t.unread} new {t.unread === 1 ? "reply" : "replies"}
                </button>
              </li>
            ))}
          </ul>
        ))}
    </section>
  );
}

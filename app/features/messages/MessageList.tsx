import { Fragment, useEffect, useLayoutEffect, useMemo, useRef, useState, type ReactNode } from "react";
import type { DecryptedAttachment } from "~/features/files/decrypt";
import type { DecryptedPreview } from "~/features/link-previews/decrypt";
import type { DecryptedMessage } from "~/features/messages/messages.client";
import { MessageItem, type MessageActions } from "~/features/messages/MessageItem";
import { continuesGroup, dayLabel, startsDay } from "~/features/messages/text";
import { forgetPosition, restorePosition, savePosition, savedPosition } from "~/features/messages/reading-position";

interface Props extends MessageActions {
  /** The open channel: a reader's position in it is kept for coming back. */
  channelId?: string;
  messages: DecryptedMessage[];
  username: string;
  highlighted: ReadonlySet<string>;
  hasMore: boolean;
  loadingOlder: boolean;
  onLoadOlder: () => void;
  /** The list is a window back in history (a jump): newer messages load at its end, "Jump to latest" goes back. */
  hasNewer?: boolean;
  onLoadNewer?: () => void;
  onJumpToLatest?: () => void;
  notice?: string | null;
  /** The read position when the channel was opened: a "New messages" divider goes above the first later message of others. */
  unreadAfter?: string | null;
  resolveAttachment: (a: DecryptedAttachment) => Promise<string>;
  resolvePreviewImage: (p: DecryptedPreview) => Promise<string>;
  onDownload: (a: DecryptedAttachment) => void;
  /** The translation of an incoming message's text, when there is one. */
  translationOf?: (m: DecryptedMessage) => string | undefined;
  showingOriginal?: ReadonlySet<string>;
  /** The BCP 47 language of the translations (for `lang`). */
  translationLang?: string;
  onToggleOriginal?: (id: string) => void;
  /** Lines such as "bob joined the channel", placed among the messages by time. */
  events?: { id: string; text: string; created: string }[];
  /** Shown in place of the messages when the channel has none. */
  empty?: ReactNode;
}

const NEAR_BOTTOM_PX = 80;
/** Messages put on screen in a conversation's first frame (from the reading position down): the rest follow in the next one. */
const FIRST_FRAME_MESSAGES = 40;

/**
 * Oldest first, with day separators, messages of one sender grouped, the "New messages" divider, and
 * a "Jump to latest" button while the reader is scrolled up and new messages arrive.
 */
export function MessageList(props: Props) {
  const { messages, highlighted, hasMore, hasNewer, loadingOlder, onLoadOlder, notice, unreadAfter } = props;
  const listRef = useRef<HTMLDivElement>(null);
  const atBottom = useRef(true);
  const lastTop = useRef(0);
  const [missed, setMissed] = useState(0);
  const lastId = messages.length ? messages[messages.length - 1].id : null;
  const seenLast = useRef<string | null>(null);
  const byId = useMemo(() => new Map(messages.map((m) => [m.id, m])), [messages]);
  const firstUnread = unreadAfter ? messages.find((m) => !m.own && m.created > unreadAfter)?.id : undefined;
  const events = useMemo(() => placeEvents(messages, props.events ?? []), [messages, props.events]);

  // A conversation's first frame holds only what is in view (the newest messages, or those from the
  // saved reading position down); the ones above follow right after that frame (the browser keeps
  // what is in view in place as they arrive above it).
  const [complete, setComplete] = useState<string | undefined>();
  const partial = complete !== props.channelId && messages.length > 0;
  useEffect(() => {
    if (!partial) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const frame = requestAnimationFrame(() => (timer = setTimeout(() => setComplete(props.channelId))));
    return () => {
      cancelAnimationFrame(frame);
      clearTimeout(timer);
    };
  }, [partial, props.channelId]);
  const saved = props.channelId ? savedPosition(props.channelId) : undefined;
  const savedAt = saved ? messages.findIndex((m) => m.id === saved.messageId) : -1;
  const start = partial ? Math.max(0, Math.min(savedAt < 0 ? messages.length : savedAt, messages.length - FIRST_FRAME_MESSAGES)) : 0;

  // A new channel starts at its saved reading position, or at the bottom.
  const restoring = useRef<string | null>(null);
  useLayoutEffect(() => {
    restoring.current = props.channelId ?? null;
    atBottom.current = true;
    seenLast.current = null;
    setMissed(0);
  }, [props.channelId]);

  useLayoutEffect(() => {
    const list = listRef.current;
    if (!list || lastId === seenLast.current) return;
    const previous = seenLast.current;
    seenLast.current = lastId;
    const newest = lastId ? byId.get(lastId) : undefined;
    const channel = restoring.current;
    if (channel && lastId) {
      restoring.current = null;
      const saved = savedPosition(channel);
      if (saved && restorePosition(list, saved)) {
        atBottom.current = false;
        return;
      }
    }
    // a window back in history stays where the reader is (its end is not the latest)
    if (hasNewer) return;
    if (atBottom.current || !previous || newest?.own) {
      list.scrollTop = list.scrollHeight;
      atBottom.current = true;
      setMissed(0);
    } else {
      setMissed((n) => n + 1);
    }
  }, [lastId, byId, hasNewer]);

  // Media that loads after the message keeps the bottom in view for a reader who is there.
  useEffect(() => {
    const list = listRef.current;
    if (!list || typeof ResizeObserver === "undefined") return;
    const keep = new ResizeObserver(() => {
      if (atBottom.current && !hasNewer) list.scrollTop = list.scrollHeight;
    });
    for (const child of list.children) keep.observe(child);
    return () => keep.disconnect();
  }, [messages, hasNewer, start]);

  const jumpToLatest = () => {
    const list = listRef.current;
    if (list) list.scrollTop = list.scrollHeight;
    atBottom.current = true;
    setMissed(0);
  };

  return (
    <div className="message-list-wrap">
      <div
        ref={listRef}
        // Another conversation's list is a new element: its messages go into the page as one piece.
        key={props.channelId}
        className="message-list"
        role="log"
        aria-label="Messages"
        aria-live="polite"
        // the older messages joining after the first frame are not news for a screen reader
        aria-busy={partial || undefined}
        onScroll={(e) => {
          const list = e.currentTarget;
          if (restoring.current) return;
          // Only the reader moving up leaves the bottom: content that grows (a picture loading) while
          // the list is being kept at the bottom does not.
          const near = list.scrollHeight - list.scrollTop - list.clientHeight < NEAR_BOTTOM_PX;
          const down = list.scrollTop > lastTop.current;
          atBottom.current = list.scrollTop < lastTop.current - 1 ? near : atBottom.current || near;
          lastTop.current = list.scrollTop;
          if (props.channelId) {
            if (atBottom.current) forgetPosition(props.channelId);
            else savePosition(props.channelId, list);
          }
          if (atBottom.current && missed) setMissed(0);
          if (hasMore && !loadingOlder && start === 0 && list.scrollTop < 40) onLoadOlder();
          // only the reader going down loads newer ones (not the list shrinking under a jump)
          if (hasNewer && !loadingOlder && near && down) props.onLoadNewer?.();
        }}
      >
        {hasMore && (
          <button type="button" className="btn btn-small load-older" onClick={onLoadOlder} disabled={loadingOlder}>
            {loadingOlder ? "Loading..." : "Load older messages"}
          </button>
        )}
        {notice && <p className="chat-notice">{notice}</p>}
        {messages.length === 0 && !hasMore && props.empty}
        {messages.slice(start).map((m, at) => {
          const i = start + at;
          const previous = messages[i - 1];
          const newDay = startsDay(previous, m);
          const unread = m.id === firstUnread;
          return (
            <Fragment key={m.id}>
              {events.before.get(m.id)?.map(eventLine)}
              {newDay && (
                <div className="day-separator" role="separator" aria-label={dayLabel(m.created)}>
                  <span>{dayLabel(m.created)}</span>
                </div>
              )}
              {unread && (
                <div className="unread-divider" role="separator" aria-label="New messages">
                  <span>New messages</span>
                </div>
              )}
              <MessageItem
                {...props}
                message={m}
                grouped={!newDay && !unread && continuesGroup(previous, m)}
                highlighted={highlighted.has(m.id)}
                quoted={m.replyTo ? (byId.get(m.replyTo) ?? null) : undefined}
                translation={m.own ? undefined : props.translationOf?.(m)}
                showingOriginal={props.showingOriginal?.has(m.id) ?? false}
                onToggleOriginal={props.onToggleOriginal ?? (() => undefined)}
              />
            </Fragment>
          );
        })}
        {events.after.map(eventLine)}
      </div>
      {hasNewer ? (
        <button
          type="button"
          className="btn btn-small jump-latest"
          onClick={() => {
            atBottom.current = true;
            props.onJumpToLatest?.();
          }}
        >
          Jump to latest
        </button>
      ) : (
        missed > 0 && (
          <button type="button" className="btn btn-small jump-latest" onClick={jumpToLatest}>
            Jump to latest ({missed})
          </button>
        )
      )}
    </div>
  );
}

function eventLine(event: { id: string; text: string }) {
  return (
    <p key={event.id} className="chat-event">
      {event.text}
    </p>
  );
}

/** Each event goes before the first message newer than it; the rest after the last message. */
function placeEvents<E extends { created: string }>(messages: { id: string; created: string }[], events: E[]) {
  const before = new Map<string, E[]>();
  const after: E[] = [];
  const time = (value: string) => Date.parse(value.replace(" ", "T"));
  for (const event of events) {
    const at = time(event.created);
    const next = messages.find((m) => time(m.created) > at);
    if (!next) after.push(event);
    else before.set(next.id, [...(before.get(next.id) ?? []), event]);
  }
  return { before, after };
}

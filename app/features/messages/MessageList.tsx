import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState, type ReactNode } from "react";
import type { DecryptedAttachment } from "~/conversation/files/decrypt";
import type { DecryptedPreview } from "~/conversation/link-previews/decrypt";
import type { DecryptedMessage } from "~/features/messages/messages.client";
import type { MessageActions } from "~/features/messages/MessageItem";
import { eventLine, messageRow, placeEvents } from "~/features/messages/message-row";
import {
  forgetPosition,
  positionIn,
  restorePosition,
  savedPosition,
  savePosition,
  type ReadingPosition,
} from "~/features/messages/reading-position";
import { onReveal, takeReveal } from "~/features/messages/reveal";
import { useVirtualRows } from "~/features/messages/useVirtualRows.client";
import { usePartialFirstFrame } from "~/features/messages/usePartialFirstFrame.client";
import { JumpToLatest } from "~/features/messages/JumpToLatest";
import type { RowsHandle } from "~/features/messages/VirtualRows";

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

/**
 * Oldest first, with day separators, messages of one sender grouped, the "New messages" divider, and
 * a "Jump to latest" button while the reader is scrolled up and new messages arrive. A long list mounts
 * only the messages in and near view (ADR 36).
 */
export function MessageList(props: Props) {
  const { messages, hasMore, hasNewer, loadingOlder, onLoadOlder, notice, unreadAfter } = props;
  const listRef = useRef<HTMLDivElement>(null);
  const atBottom = useRef(true);
  // the list's scrollTop and clientHeight at its last scroll event
  const lastTop = useRef(0);
  const lastHeight = useRef(0);
  const [missed, setMissed] = useState(0);
  const lastId = messages.length ? messages[messages.length - 1].id : null;
  const seenLast = useRef<string | null>(null);
  const byId = useMemo(() => new Map(messages.map((m) => [m.id, m])), [messages]);
  const indexOf = useMemo(() => new Map(messages.map((m, i) => [m.id, i])), [messages]);
  const keyOf = useCallback((i: number) => messages[i].id, [messages]);
  const Rows = useVirtualRows(messages.length);
  const rows = useRef<RowsHandle | null>(null);
  // where a message is in a long list (mounted or not); undefined for a list that mounts every message
  const offsetOf = Rows
    ? (id: string) => {
        const at = indexOf.get(id);
        return at === undefined ? undefined : rows.current?.offsetOf(at);
      }
    : undefined;
  // (where rows are mounted only in view, the row at the top may not be on the page yet while scrolling)
  const rowPosition = (top: number): ReadingPosition | undefined => {
    const row = rows.current?.rowAt(top);
    const m = row && messages[row.index];
    if (!row || !m) return undefined;
    // (measured from the message itself where it is on the page: its row may start with a day separator)
    const element = listRef.current?.querySelector(`#${CSS.escape(`message-${m.id}`)}`);
    const list = listRef.current?.getBoundingClientRect().top;
    return { messageId: m.id, offset: element && list !== undefined ? list - element.getBoundingClientRect().top : top - row.start };
  };
  // the first message in view while the reader is away from the bottom
  const anchor = useRef<ReadingPosition | undefined>();
  // The list put at its bottom by the page, taken as where its scroll is: a move of the reader's in
  // the same frame (one scroll event for both) is then seen as theirs, not as the list at the bottom.
  const toBottom = useCallback((list: HTMLElement) => {
    list.scrollTop = list.scrollHeight;
    lastTop.current = list.scrollTop;
    lastHeight.current = list.clientHeight;
  }, []);
  const [announced, setAnnounced] = useState("");
  const firstUnread = unreadAfter ? messages.find((m) => !m.own && m.created > unreadAfter)?.id : undefined;
  const placed = useMemo(() => placeEvents(messages, props.events ?? []), [messages, props.events]);

  const { partial, start } = usePartialFirstFrame(messages, props.channelId, Boolean(Rows));

  // A new channel starts at its saved reading position, or at the bottom.
  const restoring = useRef<string | null>(null);
  useLayoutEffect(() => {
    restoring.current = props.channelId ?? null;
    atBottom.current = true;
    lastTop.current = 0;
    seenLast.current = null;
    anchor.current = undefined;
    setMissed(0);
  }, [props.channelId]);

  // Older messages joining above (or the list turning virtual, or the rest of a first frame coming
  // after it) keep the message in view where it was (the browser's own scroll anchoring does not where
  // the list is scrolled to its very top, nor where rows are not mounted).
  const shape = `${Rows ? "virtual" : "full"}:${messages[start]?.id}`;
  const lastShape = useRef(shape);
  useLayoutEffect(() => {
    const list = listRef.current;
    if (lastShape.current === shape || !list) return;
    lastShape.current = shape;
    if (restoring.current) return;
    if (atBottom.current && !hasNewer) {
      if (Rows) toBottom(list);
    } else if (anchor.current) restorePosition(list, anchor.current, offsetOf);
  });

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
      if (saved && restorePosition(list, saved, offsetOf)) {
        anchor.current = saved;
        atBottom.current = false;
        return;
      }
    }
    // a window back in history stays where the reader is (its end is not the latest)
    if (hasNewer) return;
    if (atBottom.current || !previous || newest?.own) {
      toBottom(list);
      atBottom.current = true;
      setMissed(0);
    } else {
      // (every message after the last one counted: several may arrive in one render, a busy page's or a catch-up's)
      const after = previous === null ? undefined : indexOf.get(previous);
      const arrived = after === undefined ? 1 : messages.slice(after + 1).filter((m) => !m.own).length;
      setMissed((n) => n + Math.max(1, arrived));
    }
    // a long list's rows come and go with scrolling: a region of its own tells what arrived
    if (Rows && previous && newest && !newest.own) setAnnounced(`Message from ${newest.senderUsername}: ${newest.text || "Attachment"}`);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- offsetOf and Rows are read as they are when the last message changes
  }, [lastId, byId, indexOf, hasNewer]);

  // A message asked for (a jump, a search result) is scrolled to, mounted or not.
  useEffect(() => {
    const reveal = () => {
      const list = listRef.current;
      const id = takeReveal((id) => indexOf.has(id));
      const top = id ? offsetOf?.(id) : undefined;
      if (!list || top === undefined) return;
      atBottom.current = false;
      list.scrollTop = top - list.clientHeight / 3;
    };
    reveal();
    return onReveal(reveal);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- offsetOf follows indexOf and Rows
  }, [indexOf, Rows]);

  // Media that loads after the message, or the list getting shorter (the composer growing), keeps the
  // bottom in view for a reader who is there.
  useEffect(() => {
    const list = listRef.current;
    if (!list || typeof ResizeObserver === "undefined") return;
    const keep = new ResizeObserver(() => {
      if (atBottom.current && !hasNewer) toBottom(list);
    });
    for (const child of [list, ...list.children]) keep.observe(child);
    return () => keep.disconnect();
  }, [messages, hasNewer, start, Rows, toBottom]);

  const jumpToLatest = () => {
    const list = listRef.current;
    if (list) toBottom(list);
    atBottom.current = true;
    setMissed(0);
  };

  const row = (i: number, place?: { at: number; of: number }) => messageRow({ ...props, byId, events: placed, firstUnread }, i, place);

  return (
    <div className="message-list-wrap">
      <div
        ref={listRef}
        // Another conversation's list is a new element: its messages go into the page as one piece.
        key={props.channelId}
        className="message-list"
        role="log"
        aria-label="Messages"
        aria-live={Rows ? "off" : "polite"}
        // the older messages joining after the first frame are not news for a screen reader
        aria-busy={partial || undefined}
        onScroll={(e) => {
          const list = e.currentTarget;
          if (restoring.current) return;
          // Only the reader moving up leaves the bottom: content that grows (a picture loading) while
          // the list is being kept at the bottom does not, nor the list getting taller (a bar going away
          // pulls its scrollTop up by as much), whatever else grew in the same frame; a move up by more
          // than that is the reader's, even in the frame the height changed.
          const near = list.scrollHeight - list.scrollTop - list.clientHeight < NEAR_BOTTOM_PX;
          const down = list.scrollTop > lastTop.current;
          const grew = lastHeight.current === 0 ? Infinity : Math.max(0, list.clientHeight - lastHeight.current);
          lastHeight.current = list.clientHeight;
          atBottom.current = list.scrollTop < lastTop.current - 1 - grew ? near : atBottom.current || near;
          lastTop.current = list.scrollTop;
          anchor.current = atBottom.current ? undefined : Rows ? rowPosition(list.scrollTop) : positionIn(list);
          if (props.channelId) {
            if (anchor.current) savePosition(props.channelId, anchor.current);
            else forgetPosition(props.channelId);
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
        {Rows ? (
          <Rows
            count={messages.length}
            keyOf={keyOf}
            row={(i) => row(i, { at: i + 1, of: messages.length })}
            list={listRef}
            handle={rows}
          />
        ) : (
          messages.slice(start).map((_, at) => row(start + at))
        )}
        {placed.after.map(eventLine)}
      </div>
      {Rows && (
        <div className="visually-hidden" aria-live="polite">
          {announced}
        </div>
      )}
      <JumpToLatest
        hasNewer={Boolean(hasNewer)}
        missed={missed}
        onBackToLatest={() => {
          atBottom.current = true;
          props.onJumpToLatest?.();
        }}
        onDown={jumpToLatest}
      />
    </div>
  );
}

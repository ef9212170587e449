import { useEffect, useRef } from "react";
import type { DecryptedMessage } from "~/chat/chat.client";

interface Props {
  messages: DecryptedMessage[];
  highlighted: ReadonlySet<string>;
  hasMore: boolean;
  loadingOlder: boolean;
  onLoadOlder: () => void;
  notice?: string | null;
}

const timeFormat = new Intl.DateTimeFormat(undefined, { hour: "2-digit", minute: "2-digit", hour12: false });

export function formatTime(created: string) {
  const date = new Date(created.replace(" ", "T"));
  return Number.isNaN(date.getTime()) ? "" : timeFormat.format(date);
}

/** Oldest first, sender and time on each, own messages on the right, new arrivals highlighted. */
export function MessageList({ messages, highlighted, hasMore, loadingOlder, onLoadOlder, notice }: Props) {
  const endRef = useRef<HTMLDivElement>(null);
  const listRef = useRef<HTMLDivElement>(null);
  const lastId = messages.length ? messages[messages.length - 1].id : null;

  useEffect(() => {
    endRef.current?.scrollIntoView({ block: "end" });
  }, [lastId]);

  return (
    <div
      ref={listRef}
      className="message-list"
      role="log"
      aria-label="Messages"
      aria-live="polite"
      onScroll={(e) => {
        if (hasMore && !loadingOlder && e.currentTarget.scrollTop < 40) onLoadOlder();
      }}
    >
      {hasMore && (
        <button type="button" className="btn btn-small load-older" onClick={onLoadOlder} disabled={loadingOlder}>
          {loadingOlder ? "Loading..." : "Load older messages"}
        </button>
      )}
      {notice && <p className="chat-notice">{notice}</p>}
      {messages.map((m) => (
        <article
          key={m.id}
          className={`message${m.own ? " own" : ""}${highlighted.has(m.id) ? " highlight" : ""}`}
          aria-label={`Message from ${m.senderUsername}`}
        >
          <header>
            <span className="sender">{m.own ? "You" : m.senderUsername}</span>
            <time dateTime={m.created}>{formatTime(m.created)}</time>
          </header>
          <p className="message-text">{m.text}</p>
        </article>
      ))}
      <div ref={endRef} />
    </div>
  );
}

import { useEffect, useRef } from "react";
import type { DecryptedMessage } from "~/features/messages/messages.client";
import type { DecryptedAttachment } from "~/features/files/decrypt";
import type { DecryptedPreview } from "~/features/link-previews/decrypt";
import { AttachmentView } from "~/features/files/Attachments";
import { PreviewCard } from "~/features/link-previews/PreviewCard";

interface Props {
  messages: DecryptedMessage[];
  highlighted: ReadonlySet<string>;
  hasMore: boolean;
  loadingOlder: boolean;
  onLoadOlder: () => void;
  notice?: string | null;
  resolveAttachment: (a: DecryptedAttachment) => Promise<string>;
  resolvePreviewImage: (p: DecryptedPreview) => Promise<string>;
  onDownload: (a: DecryptedAttachment) => void;
  /** The translation of an incoming message's text, when there is one. */
  translationOf?: (m: DecryptedMessage) => string | undefined;
  showingOriginal?: ReadonlySet<string>;
  onToggleOriginal?: (id: string) => void;
}

const timeFormat = new Intl.DateTimeFormat(undefined, { hour: "2-digit", minute: "2-digit", hour12: false });

export function formatTime(created: string) {
  const date = new Date(created.replace(" ", "T"));
  return Number.isNaN(date.getTime()) ? "" : timeFormat.format(date);
}

/** Oldest first, sender and time on each, own messages on the right, new arrivals highlighted. */
export function MessageList(props: Props) {
  const { messages, highlighted, hasMore, loadingOlder, onLoadOlder, notice } = props;
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
          {m.text && <MessageText message={m} {...props} />}
          {m.attachments.map((a) => (
            <AttachmentView key={a.id} attachment={a} resolveUrl={props.resolveAttachment} onDownload={props.onDownload} />
          ))}
          {!m.text && m.attachments.length === 0 && <p className="attachment-loading">Receiving attachment...</p>}
          {m.previews.slice(0, 1).map((p) => (
            <PreviewCard key={p.id} preview={p} resolveImage={props.resolvePreviewImage} />
          ))}
        </article>
      ))}
      <div ref={endRef} />
    </div>
  );
}

function MessageText({ message, translationOf, showingOriginal, onToggleOriginal }: { message: DecryptedMessage } & Props) {
  const translated = message.own ? undefined : translationOf?.(message);
  if (translated === undefined || translated === message.text) return <p className="message-text">{message.text}</p>;
  const original = showingOriginal?.has(message.id) ?? false;
  return (
    <>
      <p className="message-text" lang={original ? undefined : "x-translated"}>
        {original ? message.text : translated}
      </p>
      <p className="translated-note">
        {original ? "Original" : "Translated"}
        <button type="button" onClick={() => onToggleOriginal?.(message.id)}>
          {original ? "Show translation" : "Show original"}
        </button>
      </p>
    </>
  );
}

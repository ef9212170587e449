import { useEffect, useRef, useState, type KeyboardEvent } from "react";
import type { DecryptedAttachment } from "~/conversation/files/decrypt";
import { AttachmentView } from "~/features/files/Attachments";
import { PendingAttachment } from "~/features/files/PendingAttachment";
import type { DecryptedPreview } from "~/conversation/link-previews/decrypt";
import { PreviewCard } from "~/features/link-previews/PreviewCard";
import type { DecryptedMessage } from "~/features/messages/messages.client";
import { RichText } from "~/features/messages/RichText";
import { whoReacted } from "~/conversation/messages/emoji";
import { firstLine, formatTime, tooLongText } from "~/features/messages/text";
import { MessageActionsBar, openActionsMenu, type MessageActions } from "~/features/messages/MessageActions";
import { ThreadSummaryLine } from "~/features/threads/ThreadSummaryLine";
import { PersonName } from "~/features/profile-cards/PersonName";
import { on } from "~/lib/events";

export type { MessageActions };

export interface ItemProps extends MessageActions {
  message: DecryptedMessage;
  username: string;
  grouped: boolean;
  highlighted: boolean;
  quoted?: DecryptedMessage | null;
  resolveAttachment: (a: DecryptedAttachment) => Promise<string>;
  resolvePreviewImage: (p: DecryptedPreview) => Promise<string>;
  onDownload: (a: DecryptedAttachment) => void;
  translation?: string;
  translationLang?: string;
  showingOriginal: boolean;
  onToggleOriginal: (id: string) => void;
  /** In a long list that mounts only what is in view: this message's place among all loaded (from 1). */
  place?: { at: number; of: number };
}

/** One message: sender and time (once per group), reply quote, text, files, preview, reactions and actions. */
export function MessageItem(props: ItemProps) {
  const { message: m, grouped } = props;
  const [editing, setEditing] = useState(false);
  const article = useRef<HTMLElement>(null);
  const sender = m.own ? "You" : m.senderUsername;
  // Saved or cancelled, the edit box goes: focus returns to the action that opened it (once it has gone).
  const refocus = useRef(false);
  const endEdit = () => {
    refocus.current = true;
    setEditing(false);
  };
  useEffect(() => {
    if (editing || !refocus.current) return;
    refocus.current = false;
    if (document.activeElement !== document.body && document.activeElement) return;
    const actions = [...(article.current?.querySelectorAll<HTMLButtonElement>(".message-actions button") ?? [])];
    (actions.find((b) => b.textContent === "Edit") ?? actions.find((b) => b.classList.contains("message-more")))?.focus();
  }, [editing]);
  return (
    <article
      ref={article}
      id={`message-${m.id}`}
      className={`message${m.own ? " own" : ""}${props.highlighted ? " highlight" : ""}${grouped ? " grouped" : ""}`}
      aria-label={`Message from ${m.senderUsername}`}
      aria-posinset={props.place?.at}
      aria-setsize={props.place?.of}
      onContextMenu={openActionsMenu}
    >
      <header className={grouped ? "visually-hidden" : undefined}>
        <span className="sender">{m.own ? sender : <PersonName userId={m.senderId} username={m.senderUsername} />}</span>
        <time dateTime={m.created}>{formatTime(m.created)}</time>
      </header>
      {m.pinnedBy && <p className="pinned-by">📌 Pinned by {m.pinnedBy === props.username ? "you" : m.pinnedBy}</p>}
      {m.replyTo && <ReplyQuote quoted={props.quoted ?? null} onJump={() => props.onJumpTo(m.replyTo!)} />}
      {editing ? (
        <EditBox
          id={m.id}
          initial={m.text}
          onCancel={endEdit}
          onSave={async (text) => (await props.onEdit(m, text)) && endEdit()}
          onLost={(text) => props.onEditLost(m, text)}
        />
      ) : (
        m.text && <Text {...props} />
      )}
      {m.edited && !editing && <span className="edited">(edited)</span>}
      {m.previousKey && <span className="previous-key">Signed with {m.senderUsername}&apos;s previous key</span>}
      {m.attachments.map((a) => (
        <AttachmentView key={a.id} attachment={a} resolveUrl={props.resolveAttachment} onDownload={props.onDownload} />
      ))}
      {m.attachments.length === 0 && (!m.text || m.fileHashes.length > 0) && (
        <PendingAttachment created={m.created} senderId={m.senderId} />
      )}
      {m.previews.slice(0, 1).map((p) => (
        <PreviewCard key={p.id} preview={p} resolveImage={props.resolvePreviewImage} />
      ))}
      {!m.thread && <ThreadSummaryLine rootId={m.id} onOpen={() => props.onOpenThread(m.id)} />}
      {/* (a space after "(edited)" or the previous key's line, which it may follow on one line) */}
      {m.thread && (
        <>
          {" "}
          <button type="button" className="link-button thread-origin" onClick={() => props.onOpenThread(m.thread!)}>
            Replied in a thread
          </button>
        </>
      )}
      {m.reactions && m.reactions.length > 0 && (
        <div className="reactions" role="group" aria-label="Reactions">
          {m.reactions.map((r) => (
            <button
              key={r.emoji}
              type="button"
              className={`reaction${r.ownId ? " own" : ""}`}
              aria-pressed={Boolean(r.ownId)}
              aria-label={`${r.emoji} ${r.count}: ${whoReacted(r.who, r.emoji)}`}
              title={whoReacted(r.who, r.emoji)}
              onClick={() => props.onReact(m, r.emoji)}
            >
              {r.emoji} {r.count}
            </button>
          ))}
        </div>
      )}
      <MessageActionsBar {...props} sender={sender} onStartEdit={() => setEditing(true)} />
    </article>
  );
}

function Text({ message, username, translation, translationLang, showingOriginal, onToggleOriginal }: ItemProps) {
  if (translation === undefined || translation === message.text)
    return <RichText id={message.id} text={message.text} username={username} />;
  return (
    <>
      <RichText
        id={message.id}
        text={showingOriginal ? message.text : translation}
        username={username}
        lang={showingOriginal ? undefined : translationLang}
      />
      <p className="translated-note">
        {showingOriginal ? "Original" : "Translated"}
        <button type="button" onClick={() => onToggleOriginal(message.id)}>
          {showingOriginal ? "Show translation" : "Show original"}
        </button>
      </p>
    </>
  );
}

function ReplyQuote({ quoted, onJump }: { quoted: DecryptedMessage | null; onJump: () => void }) {
  return (
    <button type="button" className="reply-quote" onClick={onJump}>
      {quoted ? (
        <>
          <strong>{quoted.own ? "You" : quoted.senderUsername}</strong>{" "}
          {firstLine(quoted.text || quoted.attachments[0]?.name || "Attachment")}
        </>
      ) : (
        "Reply to an earlier message"
      )}
    </button>
  );
}

interface EditProps {
  id: string;
  initial: string;
  onSave: (text: string) => void;
  onCancel: () => void;
  onLost: (text: string) => void;
}

function EditBox({ id, initial, onSave, onCancel, onLost }: EditProps) {
  const [text, setText] = useState(initial);
  // The message deleted meanwhile (in another tab, by someone else): what was typed is not lost.
  const typed = useRef(text);
  typed.current = text;
  const lost = useRef(onLost);
  lost.current = onLost;
  useEffect(() => on("message:deleted", ({ messageId }) => messageId === id && lost.current(typed.current)), [id]);
  const tooLong = tooLongText(text);
  const canSave = text.trim().length > 0 && !tooLong;
  // The box opens because the user chose Edit: typing goes on at the end of the message, as in every editor.
  const box = useRef<HTMLTextAreaElement>(null);
  useEffect(() => {
    box.current?.focus();
    box.current?.setSelectionRange(initial.length, initial.length);
  }, [initial]);
  const keys = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    if (e.key === "Escape") {
      e.stopPropagation();
      onCancel();
    } else if (e.key === "Enter" && !e.shiftKey) {
      e.preventDefault();
      if (canSave) onSave(text);
    }
  };
  return (
    <div className="edit-box">
      <textarea
        ref={box}
        dir="auto"
        aria-label="Edit message"
        value={text}
        onChange={(e) => setText(e.target.value)}
        onKeyDown={keys}
        rows={2}
      />
      {tooLong && (
        <p className="form-error" role="alert">
          {tooLong}
        </p>
      )}
      <button type="button" className="btn btn-small btn-primary" onClick={() => canSave && onSave(text)} disabled={!canSave}>
        Save
      </button>
      <button type="button" className="btn btn-small" onClick={onCancel}>
        Cancel
      </button>
    </div>
  );
}

import { fetchThread } from "~/features/threads/fetch.client";
import { BackButton } from "~/ui/BackButton";
import { useEffect, useId, useMemo, useRef, useState, type KeyboardEvent } from "react";
import type { SessionUser } from "~/lib/session-user";
import type { Notify } from "~/ui/Toast";
import { usePanelFocus } from "~/ui/usePanelFocus";
import { keepsBoxFocus, useCaretAtEnd } from "~/ui/message-box";
import type { Channel } from "~/conversation/channels/types";
import { applyAnnotations, type Annotation } from "~/conversation/messages/annotations";
import { formatTime, tooLongText } from "~/features/messages/text";
import type { DecryptedMessage } from "~/features/messages/messages.client";
import { UNREADABLE_ROOT } from "~/conversation/messages/unreadable";
import { decryptRecords } from "~/conversation/messages/open.client";
import { RichText } from "~/features/messages/RichText";
import { mergeMessages } from "~/conversation/messages/merge";
import { markThreadSeen, threadsChanged } from "~/features/threads/seen.client";
import { ApiError } from "~/lib/api.client";
import { subscribeReplies } from "~/features/threads/summaries.client";
import { on } from "~/lib/events";
import { moveToDraft, useDraft } from "~/features/messages/drafts.client";
import { REPLY_WAITS_OFFLINE, useThreadReply } from "~/features/threads/useThreadReply.client";
import { useFollowLatest } from "~/features/threads/useFollowLatest.client";
import { AttachmentView } from "~/features/files/Attachments";
import { isMessageId } from "~/features/address/address";
import type { DecryptedAttachment } from "~/conversation/files/decrypt";

interface Props {
  user: SessionUser;
  channel: Channel;
  rootId: string;
  notify: Notify;
  /** A reply this page sent: into the history (which counts it, and shows it in the channel when it is sent there too). */
  onSent: (reply: DecryptedMessage) => void;
  /** The root as the conversation's list shows it (edits applied live), when the list holds it. */
  listed?: DecryptedMessage;
  /** The root's files: opened as the list opens them. */
  files: { resolve: (a: DecryptedAttachment) => Promise<string>; download: (a: DecryptedAttachment) => void };
  onClose: () => void;
}

/** What the panel says of a thread whose first message is gone (see `goneHow`). */
const GONE = {
  deleted: "The first message of this thread was deleted, and its replies with it.",
  missing: "This thread is not there. Its first message may have been deleted, and its replies with it.",
};

/** One thread beside the channel (full screen on a phone): its root, the replies live, and a box to reply. */
export function ThreadPanel({ user, channel, rootId, notify, onSent, listed, files, onClose }: Props) {
  const panel = usePanelFocus<HTMLElement>(onClose);
  const [root, setRoot] = useState<DecryptedMessage | null>(null);
  const [replies, setReplies] = useState<DecryptedMessage[]>([]);
  const [annotations, setAnnotations] = useState<ReadonlyMap<string, Annotation>>(new Map());
  const [failed, setFailed] = useState(false);
  // Each thread's reply being typed is its own draft (drafts.client.ts, ADR 0096): it never follows into
  // another thread, where Enter would post it; closing the panel (Esc) keeps it for the next opening.
  const draftKey = `thread:${channel.id}:${rootId}`;
  const [text, setText] = useDraft(draftKey);
  const box = useRef<HTMLTextAreaElement>(null);
  useCaretAtEnd(box, draftKey);
  /**
   * The root was deleted while the panel was open ("deleted"), or the server has no such thread
   * ("missing": deleted before, or an address that never named one; the server cannot tell which).
   */
  const [goneHow, setGone] = useState<"deleted" | "missing" | null>(null);
  const gone = goneHow !== null;
  // A reply being typed when the root is deleted goes to the conversation's message box, and the panel says so.
  const [replyMoved, setReplyMoved] = useState(false);
  const typed = useRef(text);
  typed.current = text;
  const boxId = useId();
  const { alsoToChannel, setAlsoToChannel, sending, waits, send } = useThreadReply({
    user,
    channel,
    rootId,
    draftKey,
    text,
    setText,
    gone,
    notify,
    onSent,
  });

  useEffect(() => {
    setGone(null);
    setReplyMoved(false);
    return on("message:deleted", ({ channelId, messageId }) => {
      if (channelId !== channel.id) return;
      if (messageId === rootId) {
        setGone("deleted");
        if (!typed.current.trim()) return;
        moveToDraft(channel.id, typed.current);
        setText("");
        setReplyMoved(true);
      } else setReplies((list) => list.filter((m) => m.id !== messageId));
    });
  }, [channel.id, rootId, setText]);

  useEffect(() => {
    let current = true;
    setRoot(null);
    setReplies([]);
    setFailed(false);
    // (an address whose thread part cannot be an id: no such thread, nothing to ask)
    if (!isMessageId(rootId)) return setGone("missing");
    fetchThread(channel.id, rootId)
      .then((found) => decryptRecords(user, channel, found.messages, undefined, { isThreadRoot: (id) => id === rootId }))
      .then(
        ({ messages, annotations: found }) => {
          if (!current) return;
          setRoot(messages.find((m) => m.id === rootId) ?? null);
          setReplies((live) =>
            mergeMessages(
              live,
              messages.filter((m) => m.thread === rootId),
            ),
          );
          setAnnotations(new Map(found.map((a) => [a.id, a])));
        },
        (error: unknown) => {
          if (!current) return;
          // (its root deleted since the thread was listed: said as such, and the Threads view reads again)
          if (error instanceof ApiError && error.status === 404) {
            setGone("missing");
            threadsChanged();
          } else setFailed(true);
        },
      );
    const stop = subscribeReplies((reply) => {
      if (reply.thread === rootId && reply.channelId === channel.id) setReplies((list) => mergeMessages(list, [reply]));
    });
    return () => {
      current = false;
      stop();
    };
  }, [user, channel, rootId]);

  const shown = useMemo(() => applyAnnotations(replies, annotations), [replies, annotations]);
  // (edited since the thread was read: as the list shows it, or with the edits read with the thread)
  const shownRoot = useMemo(() => listed ?? (root ? applyAnnotations([root], annotations)[0] : null), [listed, root, annotations]);
  const latest = shown.at(-1)?.created ?? "";
  useEffect(() => markThreadSeen(rootId, latest), [rootId, latest]);

  const keys = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key === "Enter" && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault();
      void send();
    }
  };

  const { body, followScroll } = useFollowLatest(draftKey, shown, Boolean(shownRoot));

  const sender = (m: DecryptedMessage) => (m.own ? "You" : m.senderUsername);
  return (
    <aside ref={panel} className="side-panel thread-panel" aria-label="Thread">
      <div className="side-panel-head">
        <BackButton onBack={onClose} />
        <h2>Thread</h2>
        <button type="button" className="icon-button panel-close" aria-label="Close thread" onClick={onClose}>
          ×
        </button>
      </div>
      {failed && <p role="alert">This thread could not be loaded.</p>}
      {goneHow && <p role="alert">{`${GONE[goneHow]}${replyMoved ? " Your reply is in the message box." : ""}`}</p>}
      <div className="thread-body" ref={body} onScroll={followScroll}>
        {shownRoot && !gone && (
          <article className="thread-root" aria-label={`Thread started by ${shownRoot.senderUsername}`}>
            <header>
              <span className="sender">{sender(shownRoot)}</span> <time dateTime={shownRoot.created}>{formatTime(shownRoot.created)}</time>
            </header>
            {shownRoot.unreadable ? (
              <p className="unreadable-note">{UNREADABLE_ROOT}</p>
            ) : (
              <RichText text={shownRoot.text} username={user.username} />
            )}
            {shownRoot.attachments.map((a) => (
              <AttachmentView key={a.id} attachment={a} resolveUrl={files.resolve} onDownload={files.download} />
            ))}
            {/* (a root not in the list: its files are in the conversation, where it is) */}
            {shownRoot.attachments.length === 0 && shownRoot.fileHashes.length > 0 && <p className="thread-root-file">Attachment</p>}
          </article>
        )}
        <ul className="thread-replies" aria-label="Replies">
          {(gone ? [] : shown).map((m) => (
            <li key={m.id} id={`reply-${m.id}`}>
              <header>
                <span className="sender">{sender(m)}</span> <time dateTime={m.created}>{formatTime(m.created)}</time>
                {!m.threadOnly && <span className="thread-also"> · also sent to the channel</span>}
              </header>
              <RichText text={m.text} username={user.username} />
            </li>
          ))}
        </ul>
      </div>
      {/* (nothing to reply to once the root is gone) */}
      {!gone && (
        <form className="thread-composer" onSubmit={(e) => void send(e)}>
          <label htmlFor={boxId} className="visually-hidden">
            Reply in thread
          </label>
          <textarea
            id={boxId}
            ref={box}
            dir="auto"
            rows={2}
            value={text}
            placeholder="Reply..."
            onChange={(e) => setText(e.target.value)}
            onKeyDown={keys}
          />
          <label className="thread-also-check">
            <input type="checkbox" checked={alsoToChannel} onChange={(e) => setAlsoToChannel(e.target.checked)} /> Also send to channel
          </label>
          {waits && (
            <p className="thread-waits" role="status">
              {REPLY_WAITS_OFFLINE}
            </p>
          )}
          {tooLongText(text) && (
            <p className="form-error" role="alert">
              {tooLongText(text)}
            </p>
          )}
          <button
            type="submit"
            className="btn btn-small"
            disabled={sending || !text.trim() || Boolean(tooLongText(text))}
            {...keepsBoxFocus}
          >
            Send reply
          </button>
        </form>
      )}
    </aside>
  );
}

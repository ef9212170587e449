import { insideOpenFence, SHORTCUT_MARKERS, wrapSelection } from "~/features/markdown/compose";
import { useEffect, useId, useRef, useState, type KeyboardEvent, type ReactNode } from "react";
import { formatElapsed } from "~/conversation/files/attachments";
import { useMentionSuggestions } from "~/features/messages/MentionSuggestions";
import { firstLine, tooLongText } from "~/features/messages/text";
import { ToolButton } from "~/ui/ToolButton";
import { MicIcon, PaperclipIcon } from "~/ui/icons";
import { afterSent, draftOf, draftSent, keepDraft, useDraft } from "~/features/messages/drafts.client";
import { useNarrow } from "~/ui/useNarrow.client";
import { keepsBoxFocus, useCaretAtEnd } from "~/ui/message-box";

interface Props {
  /** The conversation the box writes in: its draft is kept for it (drafts.client.ts). */
  conversationId: string;
  busy: boolean;
  error: string | null;
  onSend: (text: string) => Promise<boolean>;
  /** Upload in progress: the chosen file's name and how much has been sent (0..1). */
  upload: { name: string; fraction: number } | null;
  /** A file whose upload failed: kept so the user can try again. */
  /** A file that did not go; `refused` by the server itself (no retry can help), with the caption it had. */
  failedFile: { name: string; error: string; refused?: boolean; offline?: boolean; caption?: string } | null;
  /** Files picked, dropped or pasted (several at once: each is offered in turn). */
  onPickFiles: (files: File[]) => void;
  /** The picker's accept attribute: the kinds of file the workspace allows (undefined: any). */
  accept?: string;
  /** A picked file waiting in its dialog: once it closes, the message box has focus again. */
  pendingFile?: File | null;
  onRetryFile: () => void;
  onDiscardFile: () => void;
  recording: { elapsedMs: number } | null;
  onToggleRecording: () => void;
  /** Extra mode toggles (dictation, WhatsApp) placed beside the attachment buttons. */
  modes?: ReactNode;
  /** Text to insert into the draft (dictation); consumed when it changes. */
  draftAppend?: { id: number; text: string } | null;
  placeholder?: string;
  /** The message being replied to, quoted above the box. */
  replyTo?: { id: string; sender: string; text: string } | null;
  onCancelReply?: () => void;
  /** Usernames offered after `@`. */
  members?: readonly string[];
  /** Called as the user types (the typing indicator). */
  onTyping?: () => void;
}

/**
 * Enter sends, Shift+Enter adds a line (and so does Enter inside an open ``` block); Ctrl/Cmd+B, I and E
 * mark the selection bold, italic or as code; blank text is never sent; a failed send keeps the text.
 */
export function Composer(props: Props) {
  const { busy, error, onSend, upload, failedFile, recording } = props;
  const { conversationId } = props;
  const [text, setText] = useDraft(conversationId);
  const id = useId();
  const fileInput = useRef<HTMLInputElement>(null);
  // (dictation already taken in by the box of the conversation before: not added again here)
  const appended = useRef<number | null>(props.draftAppend?.id ?? null);
  const tooLong = tooLongText(text);
  // A refused send's words stand while the box holds what was refused: once the text is changed (or
  // emptied, given up) they no longer say anything true of it.
  const [refused, setRefused] = useState({ error, text });
  if (refused.error !== error) setRefused({ error, text });
  const sendError = error && text === refused.text ? error : null;
  const canSend = !busy && !upload && text.trim().length > 0 && !tooLong;
  // Sent while a file uploads: it goes once the upload is done, after the file (not if the file failed).
  const [afterUpload, setAfterUpload] = useState(false);
  const canQueue = !busy && Boolean(upload) && text.trim().length > 0 && !tooLong;

  if (props.draftAppend && props.draftAppend.id !== appended.current) {
    appended.current = props.draftAppend.id;
    const addition = props.draftAppend.text.trim();
    if (addition) setText((current) => (current.trim() ? `${current.replace(/\s+$/, "")} ${addition}` : addition));
  }

  // A file the server refused (too large since an administrator lowered the limit): its caption comes
  // back to the box, where it is not lost (once per refusal).
  const refusal = failedFile?.refused && failedFile.caption ? `${failedFile.name}\n${failedFile.caption}` : null;
  const restored = useRef<string | null>(null);
  if (refusal !== restored.current) {
    restored.current = refusal;
    const caption = failedFile?.caption ?? "";
    if (refusal) setText((current) => (current.trim() ? current : caption));
  }

  // When the picked file's dialog closes (sent or cancelled), typing goes on in the message box.
  const hadPending = useRef(false);
  useEffect(() => {
    if (props.pendingFile) hadPending.current = true;
    else if (hadPending.current) {
      hadPending.current = false;
      box.current?.focus();
    }
  }, [props.pendingFile]);

  useEffect(() => {
    if (upload || !afterUpload) return;
    setAfterUpload(false);
    if (!failedFile) void send();
    // eslint-disable-next-line react-hooks/exhaustive-deps -- (once the upload is over)
  }, [upload]);

  // The box as it was at each Enter pressed while a message was on its way: each goes next, in order,
  // as a message of its own (never glued to the one typed after it).
  const asked = useRef<string[]>([]);
  async function send() {
    if (canQueue) return setAfterUpload(true);
    if (busy && !upload && !tooLong && text.trim()) return void asked.current.push(text);
    if (canSend) await sendText(text);
  }
  async function sendText(draft: string) {
    if (!(await onSend(draft))) return void (asked.current = []);
    draftSent(conversationId, draft);
    setText((current) => afterSent(current, draft));
    // (another conversation opened meanwhile: the sent text is not left as this one's draft)
    keepDraft(conversationId, afterSent(draftOf(conversationId), draft));
    asked.current = asked.current.map((box) => afterSent(box, draft)).filter((box) => box.trim());
    const next = asked.current.shift();
    if (next) await sendText(next);
  }

  const box = useRef<HTMLTextAreaElement>(null);
  useCaretAtEnd(box, conversationId);
  // Reply puts the typing in the box (on a phone, its keyboard opens).
  const replying = props.replyTo?.id;
  useEffect(() => {
    if (replying) box.current?.focus();
  }, [replying]);

  // (on a phone the keys hint does not fit two lines, and a touch keyboard has no Shift+Enter to tell of)
  const narrow = useNarrow();
  const [caret, setCaret] = useState(0);
  const suggestions = useMentionSuggestions(props.members ?? [], text, caret, (start, username) => {
    const next = `${text.slice(0, start)}@${username} ${text.slice(caret)}`;
    setText(next);
    const at = start + username.length + 2;
    setCaret(at);
    requestAnimationFrame(() => box.current?.setSelectionRange(at, at));
  });

  function onKeyDown(event: KeyboardEvent<HTMLTextAreaElement>) {
    if (suggestions.onKeyDown(event)) return;
    if (event.key === "Escape" && props.replyTo) {
      event.stopPropagation();
      props.onCancelReply?.();
      return;
    }
    const field = event.currentTarget;
    const marker =
      (event.ctrlKey || event.metaKey) && !event.altKey && !event.shiftKey ? SHORTCUT_MARKERS[event.key.toLowerCase()] : undefined;
    if (marker) {
      event.preventDefault();
      const next = wrapSelection(text, field.selectionStart, field.selectionEnd, marker);
      setText(next.text);
      requestAnimationFrame(() => box.current?.setSelectionRange(next.start, next.end));
      return;
    }
    if (event.key === "Enter" && !event.shiftKey && !event.nativeEvent.isComposing) {
      // inside a ``` block Enter is a new line until the block is closed
      if (insideOpenFence(text.slice(0, field.selectionStart))) return;
      event.preventDefault();
      void send();
    }
  }

  return (
    <form
      className="composer"
      onSubmit={(e) => {
        e.preventDefault();
        void send();
      }}
      onDragOver={(e) => {
        if (e.dataTransfer.types.includes("Files")) e.preventDefault();
      }}
      onDrop={(e) => {
        const files = [...(e.dataTransfer.files ?? [])];
        if (files.length === 0) return;
        e.preventDefault();
        props.onPickFiles(files);
      }}
    >
      {sendError && (
        <p className="form-error" role="alert">
          {sendError}
        </p>
      )}
      {tooLong && (
        <p className="form-error" role="alert">
          {tooLong}
        </p>
      )}
      {upload && (
        <div className="upload-progress" role="status">
          <span>Uploading {upload.name}...</span>
          <progress max={1} value={upload.fraction} aria-label={`Upload progress of ${upload.name}`} />
          <span>{Math.round(upload.fraction * 100)}%</span>
          {afterUpload && <span>Your message goes once the upload is done.</span>}
        </div>
      )}
      {failedFile && (
        <div className="form-error upload-failed" role="alert">
          <span>
            {failedFile.error} ({failedFile.name}){failedFile.offline && ". It goes by itself once you are back online."}
          </span>
          {!failedFile.refused && (
            <button type="button" className="btn btn-small" onClick={props.onRetryFile} disabled={busy || Boolean(upload)}>
              Retry upload
            </button>
          )}
          <button type="button" className="btn btn-small" onClick={props.onDiscardFile}>
            Discard
          </button>
        </div>
      )}
      {recording && (
        <div className="recording-indicator" role="status">
          <span className="recording-dot" aria-hidden="true" /> Recording {formatElapsed(recording.elapsedMs)}
        </div>
      )}
      <div className="composer-tools">
        <input
          ref={fileInput}
          type="file"
          multiple
          accept={props.accept}
          className="visually-hidden"
          aria-hidden="true"
          tabIndex={-1}
          onChange={(e) => {
            const files = [...(e.target.files ?? [])];
            e.target.value = "";
            if (files.length > 0) props.onPickFiles(files);
          }}
        />
        <ToolButton
          icon={<PaperclipIcon />}
          label="Attach file"
          onClick={() => fileInput.current?.click()}
          disabled={Boolean(upload) || Boolean(recording)}
        />
        <ToolButton
          icon={<MicIcon />}
          label={recording ? "Stop recording" : "Record audio"}
          danger={Boolean(recording)}
          pressed={Boolean(recording)}
          onClick={props.onToggleRecording}
          disabled={Boolean(upload)}
        />
        {props.modes}
      </div>
      {props.replyTo && (
        <div className="reply-banner" role="status">
          <span>
            Replying to <strong>{props.replyTo.sender}</strong>: {firstLine(props.replyTo.text)}
          </span>
          <button type="button" className="btn btn-small" onClick={props.onCancelReply}>
            Cancel reply
          </button>
        </div>
      )}
      {suggestions.list}
      <div className="composer-row">
        <label htmlFor={id} className="visually-hidden">
          Message
        </label>
        <textarea
          dir="auto"
          id={id}
          rows={2}
          placeholder={
            props.placeholder ?? (narrow ? "Type a message..." : "Type a message... (Enter to send, Shift+Enter for a new line)")
          }
          ref={box}
          value={text}
          onChange={(e) => {
            setText(e.target.value);
            setCaret(e.target.selectionStart ?? e.target.value.length);
            if (e.target.value.trim()) props.onTyping?.();
          }}
          onSelect={(e) => setCaret(e.currentTarget.selectionStart ?? 0)}
          onKeyDown={onKeyDown}
          onPaste={(e) => {
            const files = [...(e.clipboardData.files ?? [])];
            if (files.length === 0) return;
            e.preventDefault();
            props.onPickFiles(files);
          }}
        />
        <button type="submit" className="btn btn-primary" disabled={!canSend && !canQueue} {...keepsBoxFocus}>
          {busy ? "Sending..." : "Send"}
        </button>
      </div>
    </form>
  );
}

import { useId, useState, type KeyboardEvent } from "react";

interface Props {
  busy: boolean;
  error: string | null;
  onSend: (text: string) => Promise<boolean>;
}

/** Enter sends, Shift+Enter adds a line; blank text is never sent; a failed send keeps the text. */
export function Composer({ busy, error, onSend }: Props) {
  const [text, setText] = useState("");
  const id = useId();
  const canSend = !busy && text.trim().length > 0;

  async function send() {
    if (!canSend) return;
    const draft = text;
    if (await onSend(draft)) setText((current) => (current === draft ? "" : current));
  }

  function onKeyDown(event: KeyboardEvent<HTMLTextAreaElement>) {
    if (event.key === "Enter" && !event.shiftKey && !event.nativeEvent.isComposing) {
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
    >
      {error && (
        <p className="form-error" role="alert">
          {error}
        </p>
      )}
      <div className="composer-row">
        <label htmlFor={id} className="visually-hidden">
          Message
        </label>
        <textarea
          id={id}
          rows={2}
          placeholder="Type a message... (Enter to send, Shift+Enter for a new line)"
          value={text}
          onChange={(e) => setText(e.target.value)}
          onKeyDown={onKeyDown}
          maxLength={16000}
        />
        <button type="submit" className="btn btn-primary" disabled={!canSend}>
          {busy ? "Sending..." : "Send"}
        </button>
      </div>
    </form>
  );
}

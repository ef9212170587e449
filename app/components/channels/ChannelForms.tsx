import { useId, useState, type FormEvent } from "react";
import { Modal } from "~/components/ui/Modal";
import { createChannelFormSchema, joinChannelFormSchema } from "~/validation/channels";

interface FormProps<T> {
  busy: boolean;
  error: string | null;
  onSubmit: (values: T) => void;
  onClose: () => void;
}

/** Create Channel (spec §2.5): Channel Name, Password, and the reminder to share the password. */
export function CreateChannelModal({ busy, error, onSubmit, onClose }: FormProps<{ name: string; password: string }>) {
  const [name, setName] = useState("");
  const [password, setPassword] = useState("");
  const [formError, setFormError] = useState<string | null>(null);
  const ids = { name: useId(), password: useId() };

  function submit(event: FormEvent) {
    event.preventDefault();
    if (busy) return;
    const parsed = createChannelFormSchema.safeParse({ name, password });
    if (!parsed.success) return setFormError(parsed.error.issues[0]?.message ?? "Please check the form.");
    setFormError(null);
    onSubmit(parsed.data);
  }

  const shown = formError ?? error;
  return (
    <Modal title="Create Channel" onClose={onClose}>
      <form onSubmit={submit} noValidate>
        <div className="field">
          <label htmlFor={ids.name}>Channel Name</label>
          <input id={ids.name} required maxLength={100} value={name} onChange={(e) => setName(e.target.value)} disabled={busy} />
        </div>
        <div className="field">
          <label htmlFor={ids.password}>Password</label>
          <input
            id={ids.password}
            type="password"
            required
            autoComplete="new-password"
            value={password}
            onChange={(e) => setPassword(e.target.value)}
            disabled={busy}
          />
        </div>
        <p className="hint">Share this password with the people you invite: they need it to join and read the channel.</p>
        {shown && (
          <p className="form-error" role="alert">
            {shown}
          </p>
        )}
        <div className="modal-actions">
          <button type="button" className="btn" onClick={onClose} disabled={busy}>
            Cancel
          </button>
          <button type="submit" className="btn btn-primary" disabled={busy}>
            {busy ? "Processing..." : "Create"}
          </button>
        </div>
      </form>
    </Modal>
  );
}

/** Join Channel (spec §2.5): Channel ID in UUID format, Password. */
export function JoinChannelModal({ busy, error, onSubmit, onClose }: FormProps<{ channelId: string; password: string }>) {
  const [channelId, setChannelId] = useState("");
  const [password, setPassword] = useState("");
  const [formError, setFormError] = useState<string | null>(null);
  const ids = { channel: useId(), password: useId() };

  function submit(event: FormEvent) {
    event.preventDefault();
    if (busy) return;
    const parsed = joinChannelFormSchema.safeParse({ channelId, password });
    if (!parsed.success) return setFormError(parsed.error.issues[0]?.message ?? "Please check the form.");
    setFormError(null);
    onSubmit(parsed.data);
  }

  const shown = formError ?? error;
  return (
    <Modal title="Join Channel" onClose={onClose}>
      <form onSubmit={submit} noValidate>
        <div className="field">
          <label htmlFor={ids.channel}>Channel ID</label>
          <input
            id={ids.channel}
            required
            placeholder="xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx"
            autoComplete="off"
            spellCheck={false}
            value={channelId}
            onChange={(e) => setChannelId(e.target.value)}
            disabled={busy}
          />
        </div>
        <div className="field">
          <label htmlFor={ids.password}>Password</label>
          <input
            id={ids.password}
            type="password"
            required
            autoComplete="off"
            value={password}
            onChange={(e) => setPassword(e.target.value)}
            disabled={busy}
          />
        </div>
        {shown && (
          <p className="form-error" role="alert">
            {shown}
          </p>
        )}
        <div className="modal-actions">
          <button type="button" className="btn" onClick={onClose} disabled={busy}>
            Cancel
          </button>
          <button type="submit" className="btn btn-primary" disabled={busy}>
            {busy ? "Processing..." : "Join"}
          </button>
        </div>
      </form>
    </Modal>
  );
}

import { useEffect, useId, useRef, useState, type FormEvent } from "react";
import { ApiError } from "~/lib/api.client";
import { downloadText } from "~/lib/download.client";
import { messageOf } from "~/lib/errors";
import type { SessionUser } from "~/lib/session-user";
import { Check, FormError } from "~/ui/Form";
import { Modal } from "~/ui/Modal";
import { saveRecoveryKey } from "~/features/recovery/recovery.client";
import type { RecoveryKeyStatus } from "~/features/recovery/types";
import { SkipRecoveryKey } from "~/features/recovery/SkipRecoveryKey";
import { newRecoveryKey, recoveryKeyFile, recoveryKeyFileName } from "~/features/recovery/words";

interface Props {
  user: SessionUser;
  /** Right after sign-up the way out reads "Not now"; in Account settings, "Cancel". */
  offer?: boolean;
  /** A recovery key exists: Done replaces it. */
  replacing?: boolean;
  onClose: () => void;
  onSaved?: (status: RecoveryKeyStatus) => void;
}

/**
 * "Save your recovery key": 24 words made here, shown once, with Copy, Download and an "I have saved it"
 * confirmation. Only Done stores the keys wrapped under them (replacing an older recovery key); closing
 * before that stores nothing, and the words are gone. Offered at sign-up, "Not now" (or Esc) first says
 * what is lost without one; "Continue without it" or Esc again closes, "Back to the recovery key" returns.
 */
export default function RecoveryKeyDialog({ user, offer = false, replacing = false, onClose, onSaved }: Props) {
  const [key] = useState(newRecoveryKey);
  const [saved, setSaved] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [note, setNote] = useState<string | null>(null);
  // "Not now" first says what is lost; only "Continue without it" closes.
  const [skipping, setSkipping] = useState(false);
  const notNow = useRef<HTMLButtonElement>(null);
  const asked = useRef(false);
  // Back from that question, focus returns to "Not now".
  useEffect(() => {
    if (skipping) asked.current = true;
    else if (asked.current) notNow.current?.focus();
  }, [skipping]);
  const listId = useId();

  async function copy() {
    try {
      await navigator.clipboard.writeText(key.words.join(" "));
      setNote("Recovery key copied to the clipboard.");
    } catch {
      setNote("The clipboard is not available here: download the key or write the words down.");
    }
  }

  function download() {
    const fileName = recoveryKeyFileName(user.username);
    downloadText(recoveryKeyFile(key.words, user.email, new Date()), fileName);
    setNote(`Recovery key downloaded as ${fileName}.`);
  }

  async function done(event: FormEvent) {
    event.preventDefault();
    if (busy) return;
    if (!saved) {
      setError("Save the recovery key first, then tick “I have saved it”.");
      return;
    }
    setBusy(true);
    setError(null);
    try {
      const status = await saveRecoveryKey(user.id, key.entropy);
      key.entropy.fill(0);
      onSaved?.(status);
      onClose();
    } catch (err) {
      setError(err instanceof ApiError ? err.message : messageOf(err, "The recovery key could not be saved. Please try again."));
      setBusy(false);
    }
  }

  const close = () => {
    if (busy) return;
    // Offered, the first close (Not now, Esc) says what is lost; a second one closes.
    if (offer && !skipping) setSkipping(true);
    else onClose();
  };

  if (skipping) {
    return (
      <Modal title="Continue without a recovery key?" onClose={close}>
        <SkipRecoveryKey onBack={() => setSkipping(false)} onSkip={onClose} />
      </Modal>
    );
  }

  return (
    <Modal title="Save your recovery key" onClose={close}>
      <form onSubmit={done} noValidate>
        <p>
          If you forget your password, these 24 words reset it without losing your channels, contacts and direct messages. They are shown
          only this once: copy or download them and keep them somewhere safe. Anyone who has them and can read your email can take over your
          account.
        </p>
        {replacing && <p className="hint">Your current recovery key stops working when you press Done.</p>}
        <ol id={listId} className="recovery-words" aria-label="Recovery key">
          {key.words.map((word, i) => (
            <li key={i}>{word}</li>
          ))}
        </ol>
        <div className="recovery-tools">
          <button type="button" className="btn" onClick={() => void copy()} aria-describedby={listId}>
            Copy
          </button>
          <button type="button" className="btn" onClick={download}>
            Download
          </button>
        </div>
        {note && (
          <p className="hint" role="status">
            {note}
          </p>
        )}
        <Check label="I have saved it" checked={saved} onChange={(e) => setSaved(e.target.checked)} disabled={busy} />
        <FormError message={error} />
        <div className="modal-actions">
          <button ref={notNow} type="button" className="btn" onClick={close} disabled={busy}>
            {offer ? "Not now" : "Cancel"}
          </button>
          <button type="submit" className="btn btn-primary" disabled={busy || !saved}>
            {busy ? "Processing..." : "Done"}
          </button>
        </div>
      </form>
    </Modal>
  );
}

import { useEffect, useId, useRef, useState, type FormEvent } from "react";
import { messageOf } from "~/lib/errors";
import { isBlank } from "~/lib/visible";
import type { SessionUser } from "~/lib/session-user";
import { Field, FormError } from "~/ui/Form";
import { addPasskey, listPasskeys, removePasskey } from "~/features/passkeys/manage.client";
import { formatDay } from "~/features/passkeys/texts";
import type { PasskeyListing } from "~/features/passkeys/types";
import { usePasskeysUnavailable } from "~/features/passkeys/where";

/** Account > Passkeys: the account's passkeys (name, dates, whether it unlocks the keys), add and remove. */
export function PasskeysSection({ user }: { user: SessionUser }) {
  const headingId = useId();
  const [passkeys, setPasskeys] = useState<PasskeyListing[] | null>(null);
  const [name, setName] = useState("");
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [status, setStatus] = useState<string | null>(null);
  const [confirming, setConfirming] = useState<PasskeyListing | null>(null);
  const unavailable = usePasskeysUnavailable();

  useEffect(() => {
    listPasskeys().then(setPasskeys, (failure) => setError(messageOf(failure, "Failed to load passkeys. Please try again.")));
  }, []);

  async function act(action: () => Promise<string>, fallback: string) {
    if (busy) return;
    setBusy(true);
    setError(null);
    setStatus(null);
    try {
      setStatus(await action());
    } catch (failure) {
      setError(messageOf(failure, fallback));
    } finally {
      setBusy(false);
    }
  }

  const add = (event: FormEvent) => {
    event.preventDefault();
    return act(async () => {
      // (a name of nothing to see, spaces or zero-width characters, is no name: the default one)
      const added = await addPasskey(user, isBlank(name) ? `Passkey ${(passkeys?.length ?? 0) + 1}` : name.trim());
      setPasskeys((list) => [...(list ?? []), added]);
      setName("");
      return added.unlocks
        ? `Passkey added. It signs you in and unlocks your encryption keys on a new device.`
        : `Passkey added. It signs you in; on a new device you will enter your password once, because it cannot unlock your encryption keys.`;
    }, "The passkey could not be added. Please try again.");
  };

  const remove = (passkey: PasskeyListing) =>
    act(async () => {
      await removePasskey(passkey.id);
      setPasskeys((list) => (list ?? []).filter((p) => p.id !== passkey.id));
      setConfirming(null);
      return `Passkey "${passkey.name}" removed.`;
    }, "The passkey could not be removed. Please try again.");

  return (
    <section className="account-section" aria-labelledby={headingId}>
      <h3 id={headingId}>Passkeys</h3>
      <p className="hint">
        Sign in with this device&apos;s screen lock or a security key instead of your password. A passkey that supports it also unlocks your
        encryption keys on a new device.
      </p>
      {passkeys === null ? (
        !error && <p className="hint">Loading passkeys...</p>
      ) : passkeys.length === 0 ? (
        <p className="hint">No passkeys yet.</p>
      ) : (
        <ul className="contact-list" aria-label="Passkeys">
          {passkeys.map((p) => (
            <li key={p.id} className="contact">
              <span className="contact-text">
                <strong>{p.name}</strong>
                <span className="contact-phone">
                  Added {formatDay(p.created)}, {p.lastUsed ? `last used ${formatDay(p.lastUsed)}` : "not used yet"}
                </span>
                <span className="contact-phone">{p.unlocks ? "Unlocks your encryption keys" : "Signs in only"}</span>
              </span>
              <button
                type="button"
                className="btn btn-small"
                onClick={() => setConfirming(p)}
                disabled={busy}
                aria-label={`Remove ${p.name}`}
              >
                Remove
              </button>
            </li>
          ))}
        </ul>
      )}
      {confirming && (
        <ConfirmRemove passkey={confirming} busy={busy} onConfirm={() => remove(confirming)} onCancel={() => setConfirming(null)} />
      )}
      {unavailable && <p className="hint">{unavailable}</p>}
      <form onSubmit={add} className="contact-form" noValidate hidden={unavailable !== null}>
        <Field
          label="Passkey name"
          name="passkey-name"
          maxLength={64}
          hint="Optional: how you will recognise it, such as the device it is on."
          value={name}
          onChange={(e) => setName(e.target.value)}
          disabled={busy}
        />
        {/* (aria-disabled, not disabled, while busy: the button keeps the focus through the browser's prompt) */}
        <button type="submit" className="btn btn-primary" aria-disabled={busy}>
          {busy && !confirming ? "Processing..." : "Add a passkey"}
        </button>
      </form>
      {busy && !confirming && (
        <p className="hint" role="status">
          Follow your browser&apos;s prompt for the passkey.
        </p>
      )}
      <FormError message={error} />
      {status && (
        <p className="hint" role="status">
          {status}
        </p>
      )}
    </section>
  );
}

/** Asks before removing; Esc cancels it (not the whole dialog), and focus returns to where it was. */
function ConfirmRemove(props: { passkey: PasskeyListing; busy: boolean; onConfirm: () => void; onCancel: () => void }) {
  const cancelRef = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    const section = opener?.closest<HTMLElement>("section") ?? null;
    cancelRef.current?.focus();
    return () => {
      if (opener?.isConnected) opener.focus();
      else section?.querySelector<HTMLElement>("input")?.focus();
    };
  }, []);
  return (
    // eslint-disable-next-line jsx-a11y/no-noninteractive-element-interactions -- Esc closes this confirmation
    <div
      className="confirm-box"
      role="alertdialog"
      aria-label="Remove passkey"
      onKeyDown={(event) => {
        if (event.key !== "Escape") return;
        event.preventDefault();
        event.stopPropagation();
        if (!props.busy) props.onCancel();
      }}
    >
      <p>Remove the passkey &quot;{props.passkey.name}&quot;? It will no longer sign you in.</p>
      <div className="modal-actions">
        <button ref={cancelRef} type="button" className="btn" onClick={props.onCancel} disabled={props.busy}>
          Cancel
        </button>
        <button type="button" className="btn btn-danger" onClick={props.onConfirm} disabled={props.busy}>
          {props.busy ? "Processing..." : "Remove"}
        </button>
      </div>
    </div>
  );
}

import { useState, type FormEvent } from "react";
import { FormError } from "~/ui/Form";
import { messageOf } from "~/lib/errors";
import type { SessionUser } from "~/lib/session-user";
import { newPassphraseProblem } from "~/features/sso/strength";
import { PassphraseFields } from "~/features/sso/PassphraseFields";

/**
 * After a passkey set up encryption (ADR 81): an encryption passphrase for devices without the passkey,
 * wrapped here and sent once with the sign-up's ticket. `problem` says why it matters more (the passkey
 * was not added, or gives no PRF and so cannot unlock elsewhere); "Not now" goes on to the recovery key.
 */
export function LaterPassphrase(props: { user: SessionUser; ticket: string; problem: string | null; onDone: () => void }) {
  const [passphrase, setPassphrase] = useState("");
  const [confirmation, setConfirmation] = useState("");
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (busy) return;
    const problem = newPassphraseProblem(passphrase, confirmation);
    if (problem) {
      setError(problem);
      return;
    }
    setBusy(true);
    setError(null);
    try {
      await (await import("~/features/sso/sso.client")).savePassphrase(props.user, props.ticket, passphrase);
      props.onDone();
    } catch (failure) {
      setError(messageOf(failure, "The passphrase could not be saved. Please try again."));
      setBusy(false);
    }
  }

  return (
    <form onSubmit={submit} noValidate aria-labelledby="sso-later-title">
      <h2 id="sso-later-title" className="auth-title">
        Add an encryption passphrase
      </h2>
      {props.problem ? (
        <p role="alert">{props.problem}</p>
      ) : (
        <p>Your passkey unlocks your messages on this device. An encryption passphrase also unlocks them on devices without it.</p>
      )}
      <input type="hidden" name="username" autoComplete="username" value={props.user.email} />
      <PassphraseFields
        passphrase={passphrase}
        confirmation={confirmation}
        onPassphrase={setPassphrase}
        onConfirmation={setConfirmation}
        disabled={busy}
      />
      <FormError message={error} />
      <button type="submit" className="btn btn-primary btn-block" disabled={busy}>
        {busy ? "Processing..." : "Save passphrase"}
      </button>
      <button type="button" className="btn btn-block" onClick={props.onDone} disabled={busy}>
        Not now
      </button>
    </form>
  );
}

import { useState } from "react";
import { FormError } from "~/ui/Form";
import { messageOf } from "~/lib/errors";
import type { SessionUser } from "~/lib/session-user";

/** After a first sign-in set up encryption with a passphrase: a passkey for this device, or "Not now". */
export function PasskeyOffer({ user, onDone }: { user: SessionUser; onDone: () => void }) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function addPasskey() {
    setBusy(true);
    setError(null);
    try {
      await (await import("~/features/passkeys/manage.client")).addPasskey(user, "Single sign-on device");
      onDone();
    } catch (failure) {
      setError(messageOf(failure, "The passkey could not be added. Please try again."));
      setBusy(false);
    }
  }

  return (
    <section aria-labelledby="sso-passkey-title">
      <h2 id="sso-passkey-title" className="auth-title">
        Add a passkey
      </h2>
      <p>A passkey unlocks your encryption keys on this device without your passphrase.</p>
      <FormError message={error} />
      <button type="button" className="btn btn-primary btn-block" onClick={addPasskey} disabled={busy}>
        {busy ? "Processing..." : "Add a passkey"}
      </button>
      <button type="button" className="btn btn-block" onClick={onDone} disabled={busy}>
        Not now
      </button>
    </section>
  );
}

import { useState, type FormEvent } from "react";
import { Field, FormError } from "~/ui/Form";
import { messageOf } from "~/lib/errors";
import type { SsoLinkOffer } from "~/features/sso/types";

/**
 * The provider signed in someone whose email a password account has: its password, once, links the
 * two (docs/decisions/0063-single-sign-on.md). The account keeps its keys and messages.
 */
export function SsoLink({ offer, onDone }: { offer: SsoLinkOffer; onDone: () => void }) {
  const [password, setPassword] = useState("");
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (busy) return;
    if (!password) {
      setError("Your password is required.");
      return;
    }
    setBusy(true);
    setError(null);
    try {
      await (await import("~/features/sso/sso.client")).linkWithPassword(offer, password);
      onDone();
    } catch (failure) {
      setError(messageOf(failure, "Linking failed. Please try again."));
      setBusy(false);
    }
  }

  return (
    <form onSubmit={submit} noValidate aria-labelledby="sso-link-title">
      <h2 id="sso-link-title" className="auth-title">
        Link your account
      </h2>
      <p>
        An account with {offer.email} already exists. Enter its password once to link it to single sign-on: your messages and encryption
        keys stay as they are.
      </p>
      <input type="hidden" name="username" autoComplete="username" value={offer.email} />
      <Field
        label="Password"
        name="password"
        type="password"
        autoComplete="current-password"
        required
        value={password}
        onChange={(e) => setPassword(e.target.value)}
        disabled={busy}
      />
      <FormError message={error} />
      <button type="submit" className="btn btn-primary btn-block" disabled={busy}>
        {busy ? "Processing..." : "Link and sign in"}
      </button>
    </form>
  );
}

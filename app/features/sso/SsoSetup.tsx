import { lazy, Suspense, useState, type FormEvent } from "react";
import { Field, FormError } from "~/ui/Form";
import { messageOf } from "~/lib/errors";
import type { SessionUser } from "~/lib/session-user";
import { USERNAME_PATTERN } from "~/features/auth/limits";
import { newPassphraseProblem } from "~/features/sso/strength";
import { PassphraseFields } from "~/features/sso/PassphraseFields";
import type { SsoSignUpOffer } from "~/features/sso/types";

const RecoveryKeyDialog = lazy(() => import("~/features/recovery/RecoveryKeyDialog"));

type Step = { at: "keys" } | { at: "passkey"; user: SessionUser } | { at: "recovery"; user: SessionUser };

/**
 * The first sign-in with the identity provider: a username and an encryption passphrase (the keys are
 * made and wrapped here), then a passkey for this device where the browser has one, then the recovery
 * key as at sign-up.
 */
export function SsoSetup({ offer, onDone }: { offer: SsoSignUpOffer; onDone: () => void }) {
  const [step, setStep] = useState<Step>({ at: "keys" });
  const [username, setUsername] = useState(offer.username);
  const [passphrase, setPassphrase] = useState("");
  const [confirmation, setConfirmation] = useState("");
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (busy) return;
    const problem = !USERNAME_PATTERN.test(username.trim())
      ? "Username must be 3-32 characters: letters, digits, dot, dash or underscore."
      : newPassphraseProblem(passphrase, confirmation);
    if (problem) {
      setError(problem);
      return;
    }
    setBusy(true);
    setError(null);
    try {
      const user = await (await import("~/features/sso/sso.client")).ssoSignUp(offer, username, passphrase);
      setStep({ at: "passkey", user });
    } catch (failure) {
      setError(messageOf(failure, "Setting up your account failed. Please try again."));
    } finally {
      setBusy(false);
    }
  }

  async function addPasskey(user: SessionUser) {
    setBusy(true);
    setError(null);
    try {
      await (await import("~/features/passkeys/manage.client")).addPasskey(user, "Single sign-on device");
      setStep({ at: "recovery", user });
    } catch (failure) {
      setError(messageOf(failure, "The passkey could not be added. Please try again."));
    } finally {
      setBusy(false);
    }
  }

  if (step.at === "passkey")
    return (
      <section aria-labelledby="sso-passkey-title">
        <h2 id="sso-passkey-title" className="auth-title">
          Add a passkey
        </h2>
        <p>A passkey unlocks your encryption keys on this device without your passphrase.</p>
        <FormError message={error} />
        <button type="button" className="btn btn-primary btn-block" onClick={() => addPasskey(step.user)} disabled={busy}>
          {busy ? "Processing..." : "Add a passkey"}
        </button>
        <button type="button" className="btn btn-block" onClick={() => setStep({ at: "recovery", user: step.user })} disabled={busy}>
          Not now
        </button>
      </section>
    );

  if (step.at === "recovery")
    return (
      <Suspense fallback={null}>
        <RecoveryKeyDialog user={step.user} offer onClose={onDone} />
      </Suspense>
    );

  return (
    <form onSubmit={submit} noValidate aria-labelledby="sso-setup-title">
      <h2 id="sso-setup-title" className="auth-title">
        Set up encryption
      </h2>
      <p>
        Signed in as {offer.email}. Choose an encryption passphrase: it unlocks your messages on your other devices, and only you know it.
      </p>
      <Field
        label="Username"
        name="username"
        autoComplete="username"
        required
        value={username}
        onChange={(e) => setUsername(e.target.value)}
        disabled={busy}
      />
      <PassphraseFields
        passphrase={passphrase}
        confirmation={confirmation}
        onPassphrase={setPassphrase}
        onConfirmation={setConfirmation}
        disabled={busy}
      />
      <FormError message={error} />
      <button type="submit" className="btn btn-primary btn-block" disabled={busy}>
        {busy ? "Processing..." : "Set up encryption"}
      </button>
    </form>
  );
}

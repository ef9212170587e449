import { useState, type FormEvent } from "react";
import { Field, FormError } from "~/ui/Form";
import { messageOf } from "~/lib/errors";
import { USERNAME_PATTERN } from "~/features/auth/limits";
import { newPassphraseProblem } from "~/features/sso/strength";
import { PassphraseFields } from "~/features/sso/PassphraseFields";
import { SetupSteps, type SetupStep } from "~/features/sso/SetupSteps";
import { usePasskeyFirst } from "~/features/sso/passkey-first";
import type { SsoSignUpOffer } from "~/features/sso/types";

const USERNAME_PROBLEM = "Username must be 3-32 characters: letters, digits, dot, dash or underscore.";
const NO_PRF =
  "This passkey cannot unlock your messages on other devices. Choose an encryption passphrase for them, or keep your recovery key safe.";

/**
 * The first sign-in with the identity provider (ADR 81). Where the browser has a platform passkey with
 * PRF: a username, then a passkey (the keys are made here, the passkey wraps them), then an optional
 * encryption passphrase; "Use an encryption passphrase instead", and any other browser: a username and
 * a passphrase, then a passkey offered. The recovery key is shown last, as at sign-up (SetupSteps).
 */
export function SsoSetup({ offer, onDone }: { offer: SsoSignUpOffer; onDone: () => void }) {
  const passkeyFirst = usePasskeyFirst();
  const [instead, setInstead] = useState(false);
  const [step, setStep] = useState<SetupStep | null>(null);
  const [username, setUsername] = useState(offer.username);
  const [passphrase, setPassphrase] = useState("");
  const [confirmation, setConfirmation] = useState("");
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const withPasskey = passkeyFirst === true && !instead;

  async function run(problem: string | null, work: () => Promise<void>) {
    if (busy) return;
    if (problem) return setError(problem);
    setBusy(true);
    setError(null);
    try {
      await work();
    } catch (failure) {
      setError(messageOf(failure, "Setting up your account failed. Please try again."));
    } finally {
      setBusy(false);
    }
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    const badName = USERNAME_PATTERN.test(username.trim()) ? null : USERNAME_PROBLEM;
    if (withPasskey)
      return void run(badName, async () => {
        const client = await import("~/features/sso/sso.client");
        try {
          const { user, unlocks } = await client.ssoSignUpWithPasskey(offer, username);
          setStep({ at: "passphrase", user, ticket: offer.ticket, problem: unlocks ? null : NO_PRF });
        } catch (failure) {
          if (!(failure instanceof client.PasskeyNotAdded)) throw failure;
          const problem = `${failure.message} Choose an encryption passphrase instead.`;
          setStep({ at: "passphrase", user: failure.user, ticket: offer.ticket, problem });
        }
      });
    void run(badName ?? newPassphraseProblem(passphrase, confirmation), async () => {
      const user = await (await import("~/features/sso/sso.client")).ssoSignUp(offer, username, passphrase);
      setStep({ at: "passkey", user });
    });
  }

  if (step) return <SetupSteps first={step} onDone={onDone} />;
  if (passkeyFirst === undefined) return <p role="status">Signing you in...</p>;

  return (
    <form onSubmit={submit} noValidate aria-labelledby="sso-setup-title">
      <h2 id="sso-setup-title" className="auth-title">
        Set up encryption
      </h2>
      <p>
        {withPasskey
          ? `Signed in as ${offer.email}. A passkey on this device unlocks your messages: only you can use it, not the server nor your identity provider.`
          : `Signed in as ${offer.email}. Choose an encryption passphrase: it unlocks your messages on your other devices, and only you know it.`}
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
      {!withPasskey && (
        <PassphraseFields
          passphrase={passphrase}
          confirmation={confirmation}
          onPassphrase={setPassphrase}
          onConfirmation={setConfirmation}
          disabled={busy}
        />
      )}
      <FormError message={error} />
      <button type="submit" className="btn btn-primary btn-block" disabled={busy}>
        {busy ? "Processing..." : withPasskey ? "Set up with a passkey" : "Set up encryption"}
      </button>
      {withPasskey && (
        <button type="button" className="btn btn-block" onClick={() => setInstead(true)} disabled={busy}>
          Use an encryption passphrase instead
        </button>
      )}
    </form>
  );
}

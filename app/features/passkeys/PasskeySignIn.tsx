import { useEffect, useRef, useState } from "react";
import { messageOf } from "~/lib/errors";
import type { SessionUser } from "~/lib/session-user";
import { LazyModal as Modal } from "~/ui/LazyModal";
import { Field, FormActions, FormError } from "~/ui/Form";
import { APPROVE_FROM_DEVICE, PASSWORD_ONCE } from "~/features/passkeys/texts";
import { LinkRequest } from "~/features/device-link/LinkRequest";
import { useUnlockForm } from "~/features/device-link/useUnlockForm";

// The passkey code (and @simplewebauthn/browser) loads only when a passkey is used.
const signInCode = () => import("~/features/passkeys/signin.client");

/**
 * "Sign in with a passkey" on the sign-in screen. When the passkey cannot unlock the keys itself, the
 * password is asked for once, and the page says why.
 */
export function PasskeySignIn({ disabled, onSignedIn }: { disabled: boolean; onSignedIn: (user: SessionUser) => void }) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [locked, setLocked] = useState<SessionUser | null>(null);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const wasLocked = useRef(false);

  // Focus returns to the button once the unlock dialog has gone (the page behind it was inert).
  useEffect(() => {
    if (wasLocked.current && !locked) buttonRef.current?.focus();
    wasLocked.current = locked !== null;
  }, [locked]);

  async function start() {
    if (busy || disabled) return;
    setBusy(true);
    setError(null);
    try {
      const { user, unlocked } = await (await signInCode()).signInWithPasskey();
      if (unlocked) onSignedIn(user);
      else setLocked(user);
    } catch (failure) {
      setError(messageOf(failure, "Passkey sign-in failed. Please try again."));
    } finally {
      setBusy(false);
    }
  }

  return (
    <div className="passkey-signin">
      {/* (aria-disabled, not disabled: a disabled button drops the focus, and a refusal would leave it on the page) */}
      <button ref={buttonRef} type="button" className="btn btn-block" onClick={start} aria-disabled={busy || disabled}>
        {busy ? "Processing..." : "Sign in with a passkey"}
      </button>
      <FormError message={error} />
      {locked && (
        <UnlockWithPassword
          user={locked}
          onUnlocked={() => onSignedIn(locked)}
          onCancelled={() => {
            setLocked(null);
            setError("Signed out: your encryption keys stayed locked.");
          }}
        />
      )}
    </div>
  );
}

function UnlockWithPassword(props: { user: SessionUser; onUnlocked: () => void; onCancelled: () => void }) {
  const unlock = async (password: string) => (await signInCode()).unlockWithPassword(props.user, password);
  // ("Approve from another device", `linking`: the same request a signed-out device makes, for this session's keys)
  const form = useUnlockForm(unlock, props.onUnlocked, "Password is required.");
  const { busy, setBusy, linking, setLinking } = form;

  async function cancel() {
    if (busy) return;
    setBusy(true);
    try {
      await (await signInCode()).abandonPasskeySignIn();
    } finally {
      props.onCancelled();
    }
  }

  if (linking)
    return (
      <Modal title="Unlock your encryption keys" onClose={cancel}>
        <LinkRequest user={props.user} onDone={props.onUnlocked} onBack={() => setLinking(false)} backLabel="Enter your password instead" />
      </Modal>
    );

  return (
    <Modal title="Unlock your encryption keys" onClose={cancel}>
      <form onSubmit={form.submit} noValidate>
        <p>{PASSWORD_ONCE}</p>
        <input type="hidden" name="username" autoComplete="username" value={props.user.email} />
        <Field
          label="Password"
          name="password"
          type="password"
          autoComplete="current-password"
          hint={`The password of ${props.user.email}. It stays on this device.`}
          required
          value={form.secret}
          onChange={(e) => form.setSecret(e.target.value)}
          disabled={busy}
        />
        <FormError message={form.error} />
        <FormActions busy={busy} submitLabel="Unlock" onCancel={cancel} />
      </form>
      <button type="button" className="link-button" onClick={() => setLinking(true)} disabled={busy}>
        {APPROVE_FROM_DEVICE}
      </button>
    </Modal>
  );
}

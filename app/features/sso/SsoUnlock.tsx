import { useState } from "react";
import { Field, FormError } from "~/ui/Form";
import { messageOf } from "~/lib/errors";
import type { SessionUser } from "~/lib/session-user";
import { LinkRequest } from "~/features/device-link/LinkRequest";
import { useUnlockForm } from "~/features/device-link/useUnlockForm";
import { APPROVE_FROM_DEVICE } from "~/features/passkeys/texts";
import { usePasskeysUnavailable } from "~/features/passkeys/where";

/**
 * Signed in with the identity provider on a device that does not hold the keys yet: the encryption
 * passphrase unlocks them here, or the account's passkey (ADR 81), or a signed-in device approves this
 * one (ADR 59).
 */
export function SsoUnlock({ user, onUnlocked }: { user: SessionUser; onUnlocked: () => void }) {
  const unlock = async (passphrase: string) => (await import("~/features/sso/sso.client")).unlockWithPassphrase(user, passphrase);
  const form = useUnlockForm(unlock, onUnlocked, "Your encryption passphrase is required.");
  const { busy, linking, setLinking } = form;
  const passkeys = usePasskeysUnavailable() === null;
  const [passkeyError, setPasskeyError] = useState<string | null>(null);

  async function withPasskey() {
    form.setBusy(true);
    setPasskeyError(null);
    try {
      await (await import("~/features/sso/sso.client")).unlockWithPasskey(user);
      onUnlocked();
    } catch (failure) {
      setPasskeyError(messageOf(failure, "Your encryption keys could not be unlocked. Please try again."));
      form.setBusy(false);
    }
  }

  if (linking)
    return <LinkRequest user={user} onDone={onUnlocked} onBack={() => setLinking(false)} backLabel="Enter your passphrase instead" />;

  return (
    <form onSubmit={form.submit} noValidate aria-labelledby="sso-unlock-title">
      <h2 id="sso-unlock-title" className="auth-title">
        Unlock your encryption keys
      </h2>
      <p>
        Signed in as {user.email}. Enter your encryption passphrase once to unlock your messages on this device. If you linked an account
        that had a password, or reset your password with a code, that password is your passphrase.
      </p>
      <input type="hidden" name="username" autoComplete="username" value={user.email} />
      <Field
        label="Encryption passphrase"
        name="passphrase"
        type="password"
        autoComplete="current-password"
        hint="It stays on this device."
        required
        value={form.secret}
        onChange={(e) => form.setSecret(e.target.value)}
        disabled={busy}
      />
      <FormError message={form.error ?? passkeyError} />
      <button type="submit" className="btn btn-primary btn-block" disabled={busy}>
        {busy ? "Processing..." : "Unlock"}
      </button>
      {passkeys && (
        <button type="button" className="btn btn-block" onClick={withPasskey} disabled={busy}>
          Unlock with a passkey
        </button>
      )}
      <button type="button" className="btn btn-block" onClick={() => setLinking(true)} disabled={busy}>
        {APPROVE_FROM_DEVICE}
      </button>
    </form>
  );
}

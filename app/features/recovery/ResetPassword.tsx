import { useId, useState, type FormEvent } from "react";
import { ApiError } from "~/lib/api.client";
import { useLinkToken } from "~/lib/useLinkToken";
import { messageOf } from "~/lib/errors";
import { Field, FormError } from "~/ui/Form";
import { newPasswordProblem } from "~/features/auth/form-checks";
import { MIN_PASSWORD_LENGTH } from "~/features/auth/limits";
import { openResetLink, resetWithRecoveryKey, resetWithoutRecoveryKey } from "~/features/recovery/recovery.client";
import type { ResetAccount } from "~/features/recovery/types";

export const WHAT_IS_LOST =
  "Without your recovery key, ChatCrypt cannot open what was encrypted for your old keys: your channels' saved passwords, your contacts, settings and the history of sealed channels and direct messages. You will need each channel's password again. Your contacts will be told your keys changed.";

/** Said before a reset without the recovery key when a passkey of the account holds its keys. */
export const PASSKEY_KEEPS =
  "A passkey of this account unlocks your keys: sign in with it instead and nothing is lost. Resetting without the recovery key removes your passkeys.";

type State =
  | { kind: "checking" }
  | { kind: "failed"; message: string }
  | { kind: "ready"; token: string; account: ResetAccount }
  | { kind: "done"; keys: "kept" | "new" };

const failure = (error: unknown, fallback: string) => (error instanceof ApiError ? error.message : messageOf(error, fallback));

/**
 * The page a reset email's link opens (/reset-password#token=...): with the recovery key, the account's
 * keys are opened and wrapped again for the new password; without it, new keys replace them and the page
 * says first what is lost. Neither the recovery key nor the new password leaves this page.
 */
export function ResetPassword({ csrfToken }: { csrfToken: string }) {
  const [state, setState] = useState<State>({ kind: "checking" });
  useLinkToken(csrfToken, (token) => {
    if (!token) {
      setState({ kind: "failed", message: "This reset link is incomplete. Open the link from the email again." });
      return;
    }
    openResetLink(token).then(
      (account) => setState({ kind: "ready", token, account }),
      (error: unknown) => setState({ kind: "failed", message: failure(error, "The reset link could not be checked. Please try again.") }),
    );
  });

  return (
    <main className="auth">
      <div className="auth-card">
        <h1>Reset your password</h1>
        {state.kind === "checking" && <p role="status">Checking your reset link...</p>}
        {state.kind === "failed" && (
          <>
            <p className="form-error" role="alert">
              {state.message}
            </p>
            <a className="btn btn-primary" href="/">
              Open ChatCrypt
            </a>
          </>
        )}
        {state.kind === "ready" && (
          <ResetForm token={state.token} account={state.account} onDone={(keys) => setState({ kind: "done", keys })} />
        )}
        {state.kind === "done" && (
          <>
            <p role="status">
              Your password has been reset and every device was signed out. Sign in with your new password
              {state.keys === "new" ? ", then join each channel again with its password." : "."}
            </p>
            <a className="btn btn-primary" href="/">
              Sign in
            </a>
          </>
        )}
      </div>
    </main>
  );
}

function ResetForm({ token, account, onDone }: { token: string; account: ResetAccount; onDone: (keys: "kept" | "new") => void }) {
  const [withKey, setWithKey] = useState(account.recovery !== null);
  const [recoveryKey, setRecoveryKey] = useState("");
  const [password, setPassword] = useState("");
  const [confirmation, setConfirmation] = useState("");
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const keyId = useId();

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (busy) return;
    const problem = (withKey && !recoveryKey.trim() ? "Enter your recovery key." : null) ?? newPasswordProblem(password, confirmation);
    if (problem) {
      setError(problem);
      return;
    }
    setBusy(true);
    setError(null);
    try {
      if (withKey) await resetWithRecoveryKey(token, account, recoveryKey, password);
      else await resetWithoutRecoveryKey(token, account, password);
      onDone(withKey ? "kept" : "new");
    } catch (err) {
      setError(failure(err, "Your password could not be reset. Please try again."));
      setBusy(false);
    }
  }

  const switchTo = (next: boolean) => {
    setWithKey(next);
    setError(null);
  };

  return (
    <form className="reset-form" onSubmit={submit} noValidate>
      <p className="hint">Account: {account.email}</p>
      {withKey ? (
        <div className="field">
          <label htmlFor={keyId}>Recovery key</label>
          <textarea
            id={keyId}
            name="recovery-key"
            aria-describedby={`${keyId}-hint`}
            autoComplete="off"
            autoCapitalize="none"
            autoCorrect="off"
            spellCheck={false}
            value={recoveryKey}
            onChange={(e) => setRecoveryKey(e.target.value)}
            disabled={busy}
          />
          <p id={`${keyId}-hint`} className="field-hint">
            The 24 words you saved, in order.
          </p>
        </div>
      ) : (
        <>
          {account.recovery === null && <p>This account has no recovery key.</p>}
          {account.passkeyUnlocks && (
            <p className="reset-passkey">
              {PASSKEY_KEEPS} <a href="/">Sign in with a passkey</a>
            </p>
          )}
          <p className="reset-loss">{WHAT_IS_LOST}</p>
        </>
      )}
      <Field
        label="New password"
        name="new-password"
        type="password"
        autoComplete="new-password"
        hint={`At least ${MIN_PASSWORD_LENGTH} characters.`}
        value={password}
        onChange={(e) => setPassword(e.target.value)}
        disabled={busy}
      />
      <Field
        label="Confirm new password"
        name="confirm-password"
        type="password"
        autoComplete="new-password"
        value={confirmation}
        onChange={(e) => setConfirmation(e.target.value)}
        disabled={busy}
      />
      <FormError message={error} />
      {busy && (
        <p className="hint" role="status">
          Resetting your password...
        </p>
      )}
      <button type="submit" className={`btn btn-block ${withKey ? "btn-primary" : "btn-danger"}`} disabled={busy}>
        {busy ? "Processing..." : withKey ? "Reset password" : "Reset without recovery key"}
      </button>
      {account.recovery !== null && (
        <button type="button" className="link-button" onClick={() => switchTo(!withKey)} disabled={busy}>
          {withKey ? "I don't have my recovery key" : "I have my recovery key"}
        </button>
      )}
    </form>
  );
}

import { useState, type FormEvent } from "react";
import { ApiError } from "~/lib/api.client";
import { useLinkToken } from "~/lib/useLinkToken";
import { ChatError } from "~/lib/errors";
import { FormError, PasswordField } from "~/ui/Form";
import { checkEmailChangeLink, confirmEmailChange, readEmailChangeLink } from "~/features/account-data/account-data.client";

type State =
  | { kind: "reading" }
  | { kind: "broken"; message: string }
  | { kind: "ready"; token: string; email: string; newEmail: string }
  | { kind: "done"; email: string };

const INCOMPLETE = "This link is incomplete. Open the link from the email again.";

/**
 * The page the email-change link opens (/change-email#token=...): the password derives the secrets of
 * both addresses, the keys are wrapped again, and the server confirms in one step. The token stays in
 * the fragment (never sent with the page request) and leaves the address bar at once.
 */
export function ChangeEmailPage({ csrfToken }: { csrfToken: string }) {
  const [state, setState] = useState<State>({ kind: "reading" });
  const [password, setPassword] = useState("");
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  useLinkToken(csrfToken, (token) => {
    const link = token ? readEmailChangeLink(token) : null;
    if (!link) {
      setState({ kind: "broken", message: INCOMPLETE });
      return;
    }
    // a used or expired link says so before the password is asked for (the server's word on it; where
    // the server cannot be asked now, the form is shown and the confirmation says what went wrong)
    checkEmailChangeLink(token).then(
      () => setState({ kind: "ready", token, ...link }),
      (err: unknown) =>
        setState(
          err instanceof ApiError && err.status >= 400 && err.status < 500 && err.status !== 429
            ? { kind: "broken", message: err.message }
            : { kind: "ready", token, ...link },
        ),
    );
  });

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (state.kind !== "ready") return;
    setBusy(true);
    setError(null);
    try {
      setState({ kind: "done", email: await confirmEmailChange(state.token, state, password) });
    } catch (err) {
      if (!(err instanceof ApiError || err instanceof ChatError)) console.warn("Changing the email address failed", err);
      setError(
        err instanceof ApiError || err instanceof ChatError ? err.message : "Your email address could not be changed. Please try again.",
      );
    } finally {
      setPassword("");
      setBusy(false);
    }
  }

  return (
    <main className="loading">
      <div className="auth-card">
        <h1>Change your email address</h1>
        {state.kind === "reading" && <p role="status">Checking the link...</p>}
        {state.kind === "broken" && (
          <p className="form-error" role="alert">
            {state.message}
          </p>
        )}
        {state.kind === "ready" && (
          <form onSubmit={submit}>
            <p>
              Enter your password to change the email address of your ChatCrypt account from <strong>{state.email}</strong> to{" "}
              <strong>{state.newEmail}</strong>. Your other sessions are signed out.
            </p>
            <PasswordField value={password} onChange={setPassword} />
            <FormError message={error} />
            <button type="submit" className="btn btn-primary" disabled={busy}>
              {busy ? "Processing..." : "Confirm new email"}
            </button>
          </form>
        )}
        {state.kind === "done" && <p role="status">Your email address is now {state.email}. Sign in with it and your password.</p>}
        {state.kind !== "ready" && (
          <a className="btn btn-primary" href="/">
            Open ChatCrypt
          </a>
        )}
      </div>
    </main>
  );
}

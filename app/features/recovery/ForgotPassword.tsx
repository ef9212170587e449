import { useId, useState, type FormEvent } from "react";
import { api, ApiError } from "~/lib/api.client";
import { Field } from "~/ui/Form";
import { emailProblem } from "~/features/auth/form-checks";

/**
 * "Forgot your password?" on the sign-in screen: asks for the email address and has PocketBase email a
 * link to /reset-password. The answer is the same whether or not the address has an account.
 */
export function ForgotPassword({ initialEmail, onBack }: { initialEmail: string; onBack: () => void }) {
  const [email, setEmail] = useState(initialEmail);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [sent, setSent] = useState<string | null>(null);
  const errorId = useId();

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (busy) return;
    const problem = emailProblem(email);
    if (problem) {
      setError(problem);
      return;
    }
    setBusy(true);
    setError(null);
    setSent(null);
    try {
      const answer = await api<{ message: string }>("/api/auth/forgot-password", { email: email.trim() });
      setSent(answer.message);
    } catch (err) {
      setError(err instanceof ApiError ? err.message : "The reset email could not be sent. Please try again.");
    } finally {
      setBusy(false);
    }
  }

  return (
    <>
      <h2 className="auth-title">Forgot your password?</h2>
      <p className="hint">
        Enter your account&apos;s email address and we will send you a link to choose a new password. Your recovery key keeps your channels
        and messages readable.
      </p>
      <form onSubmit={submit} noValidate aria-describedby={error ? errorId : undefined}>
        <Field
          label="Email"
          name="email"
          type="email"
          autoComplete="email"
          required
          value={email}
          onChange={(e) => setEmail(e.target.value)}
          disabled={busy}
        />
        {error && (
          <p id={errorId} className="form-error" role="alert">
            {error}
          </p>
        )}
        {sent && (
          <p className="invite-banner" role="status">
            {sent}
          </p>
        )}
        <button type="submit" className="btn btn-primary btn-block" disabled={busy}>
          {busy ? "Processing..." : "Send reset link"}
        </button>
      </form>
      <button type="button" className="link-button" onClick={onBack} disabled={busy}>
        Back to sign in
      </button>
    </>
  );
}

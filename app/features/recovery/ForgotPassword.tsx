import { useEffect, useId, useState, type FormEvent } from "react";
import { api, ApiError } from "~/lib/api.client";
import { Field, FormError } from "~/ui/Form";
import { emailProblem } from "~/features/auth/form-checks";
import { ResetCodeForm } from "~/features/reset-codes/ResetCodeForm";
import { resetByEmail } from "~/features/reset-codes/reset-codes.client";

/** Said, before anything is asked, on a server that sends no email. */
export const NO_RESET_EMAIL =
  "Email is not set up on this server, so no reset link can be sent. Ask an administrator of your team for a reset code and enter it here. Your recovery key, or a passkey that unlocks your keys, keeps your channels and messages readable.";

/**
 * "Forgot your password?" on the sign-in screen: asks for the email address and has PocketBase email a
 * link to /reset-password (the answer is the same whether or not the address has an account), or takes
 * an administrator's reset code, which a server without email offers first.
 */
export function ForgotPassword({ initialEmail, onBack }: { initialEmail: string; onBack: () => void }) {
  const [byEmail, setByEmail] = useState<boolean | null>(null);
  const [withCode, setWithCode] = useState(false);
  useEffect(() => {
    resetByEmail().then(setByEmail, () => setByEmail(true));
  }, []);

  return (
    <>
      <h2 className="auth-title">Forgot your password?</h2>
      {byEmail === null ? (
        <p role="status">Checking how to reset your password...</p>
      ) : byEmail && !withCode ? (
        <>
          <EmailReset initialEmail={initialEmail} />
          <button type="button" className="link-button" onClick={() => setWithCode(true)}>
            I have a reset code from an administrator
          </button>
        </>
      ) : (
        <>
          <p className="hint">{byEmail ? "Enter your email address and the code an administrator gave you." : NO_RESET_EMAIL}</p>
          <ResetCodeForm initialEmail={initialEmail} />
        </>
      )}
      <button type="button" className="link-button" onClick={onBack}>
        Back to sign in
      </button>
    </>
  );
}

/** PocketBase mails one reset link per account every 2 minutes: a second ask sooner sends none. */
const RESEND_AFTER_MS = 2 * 60_000;
/** When this page last had a link sent, by address (the page's memory only: nothing is stored). */
const askedAt = new Map<string, number>();
const clock = (at: number) => new Date(at).toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" });

/** The email way: PocketBase sends a link to /reset-password. */
function EmailReset({ initialEmail }: { initialEmail: string }) {
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
      const address = email.trim().toLowerCase();
      const before = askedAt.get(address);
      const answer = await api<{ message: string }>("/api/auth/forgot-password", { email: email.trim() });
      const now = Date.now();
      if (before !== undefined && now - before < RESEND_AFTER_MS) {
        // (said, not left to look like a second email on its way)
        setSent(
          `A link was asked for this address at ${clock(before)}, less than 2 minutes ago, and no other is sent before ${clock(Math.ceil((before + RESEND_AFTER_MS) / 60_000) * 60_000)}: if an account exists for it, use the link in that email.`,
        );
      } else {
        askedAt.set(address, now);
        setSent(answer.message);
      }
    } catch (err) {
      setError(err instanceof ApiError ? err.message : "The reset email could not be sent. Please try again.");
    } finally {
      setBusy(false);
    }
  }

  return (
    <>
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
        <FormError message={error} id={errorId} />
        {sent && (
          <p className="invite-banner" role="status">
            {sent}
          </p>
        )}
        <button type="submit" className="btn btn-primary btn-block" disabled={busy}>
          {busy ? "Processing..." : "Send reset link"}
        </button>
      </form>
    </>
  );
}

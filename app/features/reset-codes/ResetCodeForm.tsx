import { useId, useState, type FormEvent } from "react";
import { ApiError } from "~/lib/api.client";
import { Field, FormError } from "~/ui/Form";
import { emailProblem } from "~/features/auth/form-checks";
import { openResetWithCode } from "~/features/reset-codes/reset-codes.client";

/**
 * "Forgot your password?" with an administrator's reset code: the email address and the code open the
 * reset page (/reset-password), as a reset email's link would.
 */
export function ResetCodeForm({ initialEmail }: { initialEmail: string }) {
  const [email, setEmail] = useState(initialEmail);
  const [code, setCode] = useState("");
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const errorId = useId();

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (busy) return;
    const problem = emailProblem(email) ?? (code.trim() ? null : "Enter the reset code.");
    if (problem) return setError(problem);
    setBusy(true);
    setError(null);
    try {
      await openResetWithCode(email, code);
    } catch (failure) {
      setError(failure instanceof ApiError && failure.message ? failure.message : "The reset code could not be checked. Please try again.");
      setBusy(false);
    }
  }

  return (
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
      <Field
        label="Reset code"
        name="reset-code"
        autoComplete="one-time-code"
        hint="The code an administrator gave you, such as 7KQ2-M9XD-4HRT."
        required
        maxLength={40}
        value={code}
        onChange={(e) => setCode(e.target.value)}
        disabled={busy}
      />
      <FormError message={error} id={errorId} />
      <button type="submit" className="btn btn-primary btn-block" disabled={busy}>
        {busy ? "Processing..." : "Continue"}
      </button>
    </form>
  );
}

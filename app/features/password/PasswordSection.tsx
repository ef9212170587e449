import { useId, useState, type FormEvent } from "react";
import { changePasswordProblem } from "~/features/password/form-checks";
import { changePassword, PASSWORD_CHANGED } from "~/features/password/password.client";
import { messageOf } from "~/lib/errors";
import type { SessionUser } from "~/lib/session-user";
import { Field, FormError } from "~/ui/Form";

const EMPTY = { current: "", next: "", confirm: "" };

/**
 * Account > Password: the current password, a new one twice, "Change password". The passwords stay
 * in this page (password.client.ts); what is typed stays in the fields when the change fails.
 */
export function PasswordSection({ user }: { user: SessionUser }) {
  const headingId = useId();
  const [values, setValues] = useState(EMPTY);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState(false);
  const set = (field: keyof typeof EMPTY) => (e: { target: { value: string } }) => setValues((v) => ({ ...v, [field]: e.target.value }));

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (busy) return;
    setDone(false);
    const problem = changePasswordProblem(values);
    setError(problem);
    if (problem) return;
    setBusy(true);
    try {
      await changePassword(user, values);
      setValues(EMPTY);
      setDone(true);
    } catch (err) {
      setError(messageOf(err, "The password could not be changed. Your current password still works."));
    } finally {
      setBusy(false);
    }
  }

  return (
    <section className="account-section" aria-labelledby={headingId}>
      <h3 id={headingId}>Password</h3>
      <form onSubmit={submit} noValidate>
        {/* for password managers: the account the new password belongs to */}
        <input type="email" name="username" autoComplete="username" value={user.email} readOnly hidden />
        <Field
          label="Current password"
          type="password"
          autoComplete="current-password"
          required
          value={values.current}
          onChange={set("current")}
        />
        <Field label="New password" type="password" autoComplete="new-password" required value={values.next} onChange={set("next")} />
        <Field
          label="Confirm new password"
          type="password"
          autoComplete="new-password"
          required
          value={values.confirm}
          onChange={set("confirm")}
        />
        <FormError message={error} />
        {(busy || done) && (
          <p role="status" className="hint">
            {busy ? "Changing your password and signing out your other devices..." : PASSWORD_CHANGED}
          </p>
        )}
        {/* (aria-disabled while busy, not disabled: a disabled button drops the keyboard's focus; submit ignores it meanwhile) */}
        <button type="submit" className="btn btn-primary" aria-disabled={busy || undefined}>
          {busy ? "Processing..." : "Change password"}
        </button>
      </form>
    </section>
  );
}

import { useId, useState, type FormEvent } from "react";
import { ApiError } from "~/lib/api.client";
import type { SessionUser } from "~/lib/session-user";
import { Field, FormError, PasswordField } from "~/ui/Form";
import { requestEmailChange } from "~/features/account-data/account-data.client";

/** Menu > Account > Email: a link goes to the new address; the change happens when it is opened with the password. */
export function EmailSection({ user }: { user: SessionUser }) {
  const headingId = useId();
  const [newEmail, setNewEmail] = useState("");
  const [password, setPassword] = useState("");
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [sentTo, setSentTo] = useState<string | null>(null);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    setError(null);
    setSentTo(null);
    try {
      const { newEmail: to } = await requestEmailChange(user, newEmail, password);
      setSentTo(to);
      setNewEmail("");
    } catch (err) {
      setError(err instanceof ApiError ? err.message : "The email could not be sent. Please try again.");
    } finally {
      setPassword("");
      setBusy(false);
    }
  }

  return (
    <section className="account-section" aria-labelledby={headingId}>
      <h3 id={headingId}>Email</h3>
      <p>
        Your email address: <strong>{user.email}</strong>
      </p>
      <form onSubmit={submit}>
        <Field
          label="New email address"
          type="email"
          autoComplete="email"
          required
          maxLength={254}
          value={newEmail}
          onChange={(e) => setNewEmail(e.target.value)}
        />
        <PasswordField value={password} onChange={setPassword} />
        <FormError message={error} />
        {sentTo && (
          <p role="status">
            We sent a link to {sentTo}. Open it and enter your password there to finish: until then your email address stays {user.email}.
          </p>
        )}
        <button type="submit" className="btn btn-primary" disabled={busy}>
          {busy ? "Processing..." : "Change email"}
        </button>
      </form>
    </section>
  );
}

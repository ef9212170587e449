import { useId, useState, type FormEvent } from "react";
import { ApiError } from "~/lib/api.client";
import type { SessionUser } from "~/lib/session-user";
import { FormActions, FormError, PasswordField } from "~/ui/Form";
import { Modal } from "~/ui/Modal";
import { deleteMyAccount, type DeleteStep } from "~/features/account-data/account-data.client";

const STEPS: Record<DeleteStep, string> = {
  checking: "Checking your password...",
  leaving: "Leaving your direct conversations...",
  deleting: "Deleting your account...",
};

/** Menu > Account > Delete account: a dialog that says what goes and what stays, and asks for the password. */
export function DeleteAccountSection({ user }: { user: SessionUser }) {
  const headingId = useId();
  const [open, setOpen] = useState(false);
  const [password, setPassword] = useState("");
  const [step, setStep] = useState<DeleteStep | null>(null);
  const [error, setError] = useState<string | null>(null);

  const close = () => {
    if (step) return; // a running deletion finishes first
    setOpen(false);
    setPassword("");
    setError(null);
  };

  async function submit(event: FormEvent) {
    event.preventDefault();
    setError(null);
    try {
      await deleteMyAccount(user, password, setStep);
      window.location.assign("/account-deleted");
    } catch (err) {
      if (!(err instanceof ApiError)) console.warn("Deleting the account failed", err);
      setError(err instanceof ApiError ? err.message : "Your account could not be deleted. Please try again.");
      setPassword("");
      setStep(null);
    }
  }

  return (
    <section className="account-section" aria-labelledby={headingId}>
      <h3 id={headingId}>Delete account</h3>
      <p className="hint">Deletes your account from this server. This cannot be undone.</p>
      <button type="button" className="btn btn-danger" onClick={() => setOpen(true)}>
        Delete account
      </button>
      {open && (
        <Modal title="Delete your account?" onClose={close}>
          <form onSubmit={submit}>
            <p>
              Your profile, keys, keyring, key pins, settings, contacts, channel memberships, push subscriptions, notification rules and
              sessions are deleted. This cannot be undone.
            </p>
            <p>Channels you created are handed over to the member who joined them first; a channel with no other member is deleted.</p>
            <p>Your messages stay, shown to the others as from &quot;Deleted user&quot;. Your email address can sign up again.</p>
            <PasswordField value={password} onChange={setPassword} />
            <FormError message={error} />
            {step && <p role="status">{STEPS[step]}</p>}
            <FormActions busy={step !== null} submitLabel="Delete my account" onCancel={close} danger />
          </form>
        </Modal>
      )}
    </section>
  );
}

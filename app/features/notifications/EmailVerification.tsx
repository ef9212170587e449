import { FormError } from "~/ui/Form";
import { useEffect, useState } from "react";
import { ApiError, api } from "~/lib/api.client";

interface Status {
  email: string;
  verified: boolean;
}

const RECHECK_MS = 5_000;

/**
 * Email notifications reach only a verified address. Offers to send the verification email to the
 * user's own address, then waits for the link in it to be opened (in any tab or browser): the state is
 * checked again every few seconds and whenever this window gets the focus back.
 */
export function EmailVerification({ email, verified }: Status) {
  const [status, setStatus] = useState<Status>({ email, verified });
  const [phase, setPhase] = useState<"idle" | "sending" | "sent">("idle");
  const [error, setError] = useState<string | null>(null);

  const check = () => void api<Status>("/api/auth/verify-email").then(setStatus, () => undefined);

  // the page's copy may be older than a link opened since
  useEffect(() => {
    if (!verified) check();
  }, [verified]);

  useEffect(() => {
    if (status.verified || phase !== "sent") return;
    const timer = window.setInterval(check, RECHECK_MS);
    window.addEventListener("focus", check);
    return () => {
      window.clearInterval(timer);
      window.removeEventListener("focus", check);
    };
  }, [status.verified, phase]);

  async function send() {
    setPhase("sending");
    setError(null);
    try {
      const answer = await api<Status & { sent: boolean }>("/api/auth/verify-email", {});
      setStatus({ email: answer.email, verified: answer.verified });
      setPhase("sent");
    } catch (err) {
      setError(err instanceof ApiError ? err.message : "The verification email could not be sent.");
      setPhase("idle");
    }
  }

  if (status.verified) {
    return (
      <p className="hint" role="status">
        Email address verified.
      </p>
    );
  }
  if (phase === "sent") {
    return (
      <div role="status">
        <p className="hint">Verification email sent to {status.email}. Open the link in it, then come back.</p>
        <p className="hint">Verification pending: no emails are sent until the address is verified.</p>
      </div>
    );
  }
  return (
    <div>
      <p className="hint">Emails go only to a verified address: {status.email}.</p>
      <button type="button" className="btn btn-small" onClick={() => void send()} disabled={phase === "sending"}>
        Verify my email
      </button>
      <FormError message={error} />
    </div>
  );
}

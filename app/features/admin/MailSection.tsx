import { useState } from "react";
import { readMailStatus, sendTestEmail } from "~/features/admin/admin.client";
import type { MailStatus } from "~/features/admin/types";
import { FormError } from "~/ui/Form";
import { LoadFailed, useLoad } from "~/ui/useLoad";

/** Mail: whether SMTP is configured (its host, never its password) and a test email to the administrator. */
export function MailSection() {
  const [mail, setMail] = useState<MailStatus | null>(null);
  const [error, setError] = useState("");
  const [sent, setSent] = useState("");
  const [busy, setBusy] = useState(false);
  const { error: loadError, retry } = useLoad(async () => setMail(await readMailStatus()));

  async function test() {
    setBusy(true);
    setError("");
    setSent("");
    try {
      setSent((await sendTestEmail()).message);
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
    } finally {
      setBusy(false);
    }
  }

  return (
    <>
      {mail === null ? (
        loadError ? (
          <LoadFailed message={loadError} onRetry={retry} />
        ) : (
          <p className="hint">Loading mail settings...</p>
        )
      ) : mail.configured ? (
        <p>
          Email is sent through the SMTP server <strong>{mail.port ? `${mail.host}:${mail.port}` : mail.host}</strong>.
        </p>
      ) : (
        <p>
          Email is not configured: verification, password reset and notification emails are not sent. Set SMTP_HOST (see docs/operating.md).
        </p>
      )}
      {mail?.configured && (
        <button type="button" className="btn" disabled={busy} onClick={() => void test()}>
          {busy ? "Sending..." : "Send a test email"}
        </button>
      )}
      <p className="admin-status" role="status">
        {sent}
      </p>
      <FormError message={error} />
    </>
  );
}

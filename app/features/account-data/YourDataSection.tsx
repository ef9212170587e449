import { useId, useState } from "react";
import { ApiError } from "~/lib/api.client";
import type { SessionUser } from "~/lib/session-user";
import { FormError } from "~/ui/Form";
import { exportMyData } from "~/features/account-data/my-data.client";

/**
 * Menu > Account > Your data: one .zip with everything the server holds about the user and their
 * conversations as readable files, opened in this browser where they are encrypted.
 */
export function YourDataSection({ user }: { user: SessionUser }) {
  const headingId = useId();
  const [busy, setBusy] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [saved, setSaved] = useState<{ name: string; skipped: string[] } | null>(null);

  async function run() {
    setBusy("Preparing your data...");
    setError(null);
    setSaved(null);
    try {
      setSaved(await exportMyData(user, (done, total) => setBusy(`Exporting ${done} of ${total} conversations…`)));
    } catch (err) {
      if (!(err instanceof ApiError)) console.warn("Export my data failed", err);
      setError(err instanceof ApiError ? err.message : "Your data could not be exported. Please try again.");
    } finally {
      setBusy(null);
    }
  }

  return (
    <section className="account-section" aria-labelledby={headingId}>
      <h3 id={headingId}>Your data</h3>
      <p className="hint">
        One .zip file with everything this server holds about you and your conversations as readable files, opened in this browser where
        they are encrypted, and the list of what the server keeps in clear.
      </p>
      <FormError message={error} />
      {busy && <p role="status">{busy}</p>}
      {saved && (
        <div role="status">
          <p>Your data was saved as {saved.name}.</p>
          {saved.skipped.length > 0 && (
            <p>
              {saved.skipped.length === 1 ? "This conversation" : "These conversations"} could not be read on this device and{" "}
              {saved.skipped.length === 1 ? "was" : "were"} left out (listed in README.txt): {saved.skipped.join(", ")}.
            </p>
          )}
        </div>
      )}
      <button type="button" className="btn" onClick={run} disabled={busy !== null}>
        Export my data
      </button>
    </section>
  );
}

import { useId, useState } from "react";
import { ApiError } from "~/lib/api.client";
import type { SessionUser } from "~/lib/session-user";
import { FormError } from "~/ui/Form";
import { exportMyData } from "~/features/account-data/my-data.client";

/** Menu > Account > Your data: one JSON file with everything the server holds about the user, opened here. */
export function YourDataSection({ user }: { user: SessionUser }) {
  const headingId = useId();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [saved, setSaved] = useState<string | null>(null);

  async function run() {
    setBusy(true);
    setError(null);
    setSaved(null);
    try {
      setSaved(await exportMyData(user));
    } catch (err) {
      if (!(err instanceof ApiError)) console.warn("Export my data failed", err);
      setError(err instanceof ApiError ? err.message : "Your data could not be exported. Please try again.");
    } finally {
      setBusy(false);
    }
  }

  return (
    <section className="account-section" aria-labelledby={headingId}>
      <h3 id={headingId}>Your data</h3>
      <p className="hint">
        One file with everything this server holds about you, opened in this browser where it is encrypted, and the list of what the server
        keeps in clear.
      </p>
      <FormError message={error} />
      {busy && <p role="status">Preparing your data...</p>}
      {saved && <p role="status">Your data was saved as {saved}.</p>}
      <button type="button" className="btn" onClick={run} disabled={busy}>
        Export my data
      </button>
    </section>
  );
}

import { useCallback, useEffect, useId, useState } from "react";
import { actionWords } from "~/features/audit/actions";
import { loadActivity } from "~/features/audit/audit.client";
import type { ActivityEntry } from "~/features/audit/types";
import { ApiError, onSessionChanged } from "~/lib/api.client";
import { FormError } from "~/ui/Form";

const when = new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeStyle: "short" });

const LOAD_FAILED = "Your account activity could not be loaded. Please try again.";

/**
 * Menu > Account > Account activity: the latest 50 audit log entries of the account (what it did, and
 * what was done to it: an administrator's action, a burst of failed sign-ins), with address and device
 * (not an administrator's: the server leaves those out).
 */
export function AccountActivitySection() {
  const headingId = useId();
  const [entries, setEntries] = useState<ActivityEntry[] | null>(null);
  const [error, setError] = useState<string | null>(null);

  const load = useCallback(async () => {
    setError(null);
    try {
      setEntries(await loadActivity());
    } catch (err) {
      setError(err instanceof ApiError && err.status > 0 && err.status < 500 ? err.message : LOAD_FAILED);
    }
  }, []);

  useEffect(() => {
    void load();
    // a password change here hands the page a new session: its entry is new
    return onSessionChanged(() => void load());
  }, [load]);

  return (
    <section className="account-section" aria-labelledby={headingId}>
      <h3 id={headingId}>Account activity</h3>
      {entries && entries.length === 0 && <p className="hint">Nothing recorded yet.</p>}
      {entries && entries.length > 0 && (
        <ul className="device-list activity-list" aria-labelledby={headingId}>
          {entries.map((entry) => (
            <li key={entry.seq} className="device">
              <div className="device-text">
                <span>
                  <span title={entry.action}>{actionWords(entry.action)}</span>
                  {!entry.self && (entry.actor_name ? ` by @${entry.actor_name}` : " by someone else")}{" "}
                  <code className="device-meta">{entry.action}</code>
                </span>
                <span className="device-meta">
                  <time dateTime={entry.at}>{when.format(new Date(entry.at))}</time>
                  {entry.ip && `, from ${entry.ip}`}
                  {entry.device && `, ${entry.device}`}
                </span>
              </div>
            </li>
          ))}
        </ul>
      )}
      <FormError message={error} />
      <button type="button" className="btn btn-small" aria-label="Refresh account activity" onClick={() => void load()}>
        Refresh
      </button>
      {entries === null && !error && (
        <p role="status" className="hint">
          Loading account activity...
        </p>
      )}
    </section>
  );
}

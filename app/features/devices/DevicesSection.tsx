import { useCallback, useEffect, useId, useState } from "react";
import { listDevices, signOutDevice } from "~/features/devices/devices.client";
import type { DeviceSession } from "~/features/devices/types";
import { ApiError, onSessionChanged } from "~/lib/api.client";
import { FormError } from "~/ui/Form";

const when = new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeStyle: "short" });
const at = (iso: string) => when.format(new Date(iso));

const LIST_FAILED = "The devices could not be listed. Please try again.";

/**
 * Account > Devices: the account's signed-in sessions (browser and system, first and last seen), this
 * one marked "This device"; "Sign out" on another signs it out at once (its next request is refused,
 * its live stream closes).
 */
export function DevicesSection() {
  const headingId = useId();
  const [sessions, setSessions] = useState<DeviceSession[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [status, setStatus] = useState("");
  const [busyId, setBusyId] = useState<string | null>(null);

  const load = useCallback(async () => {
    try {
      setSessions(await listDevices());
    } catch (err) {
      setError(err instanceof ApiError && err.status > 0 && err.status < 500 ? err.message : LIST_FAILED);
    }
  }, []);

  useEffect(() => {
    void load();
    // a password change here signs the other devices out: list again
    return onSessionChanged(() => void load());
  }, [load]);

  async function signOut(session: DeviceSession) {
    setBusyId(session.id);
    setError(null);
    try {
      await signOutDevice(session.id);
      setStatus(`${session.agent} was signed out.`);
      await load();
    } catch (err) {
      setError(err instanceof ApiError && err.message ? err.message : "The device could not be signed out. Please try again.");
    } finally {
      setBusyId(null);
    }
  }

  return (
    <section className="account-section" aria-labelledby={headingId}>
      <h3 id={headingId}>Devices</h3>
      {sessions && (
        <ul className="device-list" aria-labelledby={headingId}>
          {sessions.map((session) => (
            <li key={session.id} className="device">
              <div className="device-text">
                <span>
                  {session.agent}
                  {session.current && <strong className="device-current"> This device</strong>}
                </span>
                <span className="device-meta">
                  First seen {at(session.firstSeen)}, last seen {at(session.lastSeen)}
                </span>
              </div>
              {!session.current && (
                <button
                  type="button"
                  className="btn btn-small"
                  aria-label={`Sign out ${session.agent}, last seen ${at(session.lastSeen)}`}
                  disabled={busyId !== null}
                  onClick={() => void signOut(session)}
                >
                  {busyId === session.id ? "Processing..." : "Sign out"}
                </button>
              )}
            </li>
          ))}
        </ul>
      )}
      <FormError message={error} />
      {(sessions === null && !error) || status ? (
        <p role="status" className="hint">
          {sessions === null && !error ? "Loading devices..." : status}
        </p>
      ) : null}
    </section>
  );
}

import { useEffect, useId, useState } from "react";
import { messageOf } from "~/lib/errors";
import { FormError } from "~/ui/Form";
import type { Person } from "~/features/direct/types";
import { listBlocked, unblock } from "~/features/requests/requests.client";

/** Account > Blocked people (ADR 0052): whom the user blocked, each with "Unblock". */
export function BlockedSection() {
  const headingId = useId();
  const [blocked, setBlocked] = useState<Person[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [status, setStatus] = useState("");
  const [busy, setBusy] = useState<string | null>(null);

  useEffect(() => {
    listBlocked().then(setBlocked, (failure: unknown) =>
      setError(messageOf(failure, "The blocked people could not be listed. Please try again.")),
    );
  }, []);

  async function end(person: Person) {
    setBusy(person.id);
    setError(null);
    try {
      await unblock(person.id);
      setBlocked((current) => current?.filter((p) => p.id !== person.id) ?? null);
      setStatus(`${person.username} was unblocked.`);
    } catch (failure) {
      setError(messageOf(failure, "The person could not be unblocked. Please try again."));
    } finally {
      setBusy(null);
    }
  }

  return (
    <section className="account-section" aria-labelledby={headingId}>
      <h3 id={headingId}>Blocked people</h3>
      {blocked && blocked.length === 0 && <p className="hint">You have not blocked anyone.</p>}
      {blocked && blocked.length > 0 && (
        <ul className="blocked-list" aria-labelledby={headingId}>
          {blocked.map((person) => (
            <li key={person.id}>
              <span>{person.username}</span>
              <button
                type="button"
                className="btn btn-small"
                aria-label={`Unblock ${person.username}`}
                disabled={busy !== null}
                onClick={() => void end(person)}
              >
                Unblock
              </button>
            </li>
          ))}
        </ul>
      )}
      <p className="hint" role="status">
        {status}
      </p>
      <FormError message={error} />
    </section>
  );
}

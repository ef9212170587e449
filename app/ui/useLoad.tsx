import { useCallback, useEffect, useRef, useState } from "react";
import { FormError } from "~/ui/Form";

const textOf = (error: unknown) => (error instanceof Error && error.message ? error.message : String(error));

/**
 * A section's first reading (the admin console's sections): `load` runs when the section is shown and
 * again on `retry`; its error is kept for LoadFailed, which offers "Try again". A reading that ends after
 * the section went away changes nothing.
 */
export function useLoad(load: () => Promise<void>) {
  const [error, setError] = useState("");
  const [attempt, setAttempt] = useState(0);
  const loadRef = useRef(load);
  loadRef.current = load;
  useEffect(() => {
    let shown = true;
    // (a failure stays on screen while the next try runs: "Try again" keeps the focus)
    loadRef.current().then(
      () => shown && setError(""),
      (e: unknown) => shown && setError(textOf(e)),
    );
    return () => void (shown = false);
  }, [attempt]);
  const retry = useCallback(() => setAttempt((n) => n + 1), []);
  return { error, retry };
}

/** What a section shows when its reading failed: why, and "Try again". */
export function LoadFailed({ message, onRetry }: { message: string; onRetry: () => void }) {
  return (
    <div className="load-failed">
      <FormError message={message} />
      <button type="button" className="btn btn-small" onClick={onRetry}>
        Try again
      </button>
    </div>
  );
}

import { useCallback, useState } from "react";
import { refusalOf } from "~/lib/api.client";

const textOf = (error: unknown, fallback?: string) =>
  fallback === undefined ? (error instanceof Error ? error.message : String(error)) : refusalOf(error, fallback);

/**
 * A setting's save, as every settings form shows it: busy while it runs (the form is disabled), then
 * the sentence saying what was saved (a status line) or the error (FormError). `save` answers that
 * sentence; an error it throws is shown with its own text, or, when a `fallback` is given, the server's
 * words of a refusal (4xx) or the product's own, else the fallback.
 */
export function useSaving(fallback?: string) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState("");
  const [saved, setSaved] = useState("");

  const run = useCallback(
    async (save: () => Promise<string>): Promise<boolean> => {
      setBusy(true);
      setError("");
      setSaved("");
      try {
        setSaved(await save());
        return true;
      } catch (e) {
        setError(textOf(e, fallback));
        return false;
      } finally {
        setBusy(false);
      }
    },
    [fallback],
  );

  /** Shows an error found before saving (a value out of range), in place of the last answer. */
  const refuse = useCallback((message: string) => {
    setSaved("");
    setError(message);
  }, []);

  return { busy, error, saved, run, refuse };
}

import { useCallback, useState } from "react";
import { messageOf } from "~/lib/errors";

/**
 * Which dialog is open, whether its action runs, and its error. `run` performs the dialog's action and
 * closes it on success; a failure stays in the dialog with our own text or the fallback.
 */
export function useDialog<T>() {
  const [dialog, setDialog] = useState<T | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const open = useCallback((next: T) => {
    setDialog(next);
    setError(null);
  }, []);

  const close = useCallback(() => {
    if (busy) return;
    setDialog(null);
    setError(null);
  }, [busy]);

  const run = useCallback(async (action: () => Promise<void>, fallback: string, keepOpen = false): Promise<boolean> => {
    setBusy(true);
    setError(null);
    try {
      await action();
      if (!keepOpen) setDialog(null);
      return true;
    } catch (failure) {
      setError(messageOf(failure, fallback));
      return false;
    } finally {
      setBusy(false);
    }
  }, []);

  return { dialog, open, close, run, busy, error, setError };
}

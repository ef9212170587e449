/**
 * An async job that a burst of calls runs at most twice: the run in progress, and one more after it for
 * every call made meanwhile (they share it), so the last call still sees a run that started after it.
 * A person deactivated from fifty conversations sends a page fifty "memberships" events at once; the page
 * reloads its lists twice instead of fifty times (docs/decisions/0056-deactivation.md).
 */
export function coalesce(job: () => Promise<unknown>): () => Promise<void> {
  let running: Promise<void> | null = null;
  let next: Promise<void> | null = null;
  const run = (): Promise<void> => {
    const current = (async () => {
      try {
        await job();
      } finally {
        running = null;
      }
    })();
    running = current;
    return current;
  };
  return () => {
    if (!running) return run();
    next ??= running
      .catch(() => undefined)
      .then(() => {
        next = null;
        return run();
      });
    return next;
  };
}

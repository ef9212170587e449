import { useCallback, useEffect, useRef, useState } from "react";

/** How long after the first channel is shown (or the page is, with none opened) the index loads unasked. */
const SHOWN_DELAY_MS = 2_000;
const IDLE_DELAY_MS = 10_000;

/**
 * When the search index is wanted: it is not part of the first load, and loads when the search box is
 * used (`want`), or once the page is idle a moment after the first channel is shown (then the backfill
 * starts). A load that failed (`failed`: the network away as the index's code was fetched) is tried
 * again (`tries` counts the attempts) when the box is used or the browser is back online; until then
 * the box says so rather than "No messages found."
 */
export function useIndexWanted(shown: boolean) {
  const [wanted, setWanted] = useState(false);
  useEffect(() => {
    if (wanted) return;
    const timer = setTimeout(
      () => (typeof requestIdleCallback === "function" ? requestIdleCallback(() => setWanted(true), { timeout: 2_000 }) : setWanted(true)),
      shown ? SHOWN_DELAY_MS : IDLE_DELAY_MS,
    );
    return () => clearTimeout(timer);
  }, [wanted, shown]);

  const [failed, setFailed] = useState(false);
  const failedNow = useRef(failed);
  failedNow.current = failed;
  const [tries, setTries] = useState(0);
  const want = useCallback(() => {
    setWanted(true);
    if (failedNow.current) setTries((n) => n + 1);
  }, []);
  useEffect(() => {
    if (!failed) return;
    window.addEventListener("online", want);
    return () => window.removeEventListener("online", want);
  }, [failed, want]);
  return { wanted, want, tries, failed, setFailed };
}

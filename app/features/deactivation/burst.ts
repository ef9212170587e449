/**
 * A burst of removals (ADR 0056): an administrator deactivated someone who was in many of the user's
 * conversations, and the page gets a "member-deactivated" and a "memberships" event for each of them.
 * Each conversation's removal runs once (the same event again joins the removal under way), and what
 * can wait (the lists reloaded, the unread counts and their mention scan) waits until the removals are
 * done and no such event came for `quietMs`, then runs once: the removals do not queue behind it.
 */
import { coalesce } from "~/lib/coalesce";

export const QUIET_MS = 250;

export interface RemovalBurst {
  /** Runs `work` for `key` (a conversation and a person), unless it runs already: then answers that run. */
  remove(key: string, work: () => Promise<void>): Promise<void>;
  /** An event of the burst (a membership that ended) arrived. */
  noted(): void;
  /** Resolves once no removal runs and no event of the burst came for `quietMs`. */
  settled(): Promise<void>;
  /**
   * `job` run once the burst settled: the calls made while it waits share that run (a call made while it
   * runs gets the next one).
   */
  afterBurst(job: () => Promise<unknown>): () => Promise<void>;
}

export function removalBurst(quietMs = QUIET_MS, now: () => number = Date.now): RemovalBurst {
  const running = new Map<string, Promise<void>>();
  let last = -Infinity;
  const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

  const burst: RemovalBurst = {
    remove(key, work) {
      burst.noted();
      const under = running.get(key);
      if (under) return under;
      const run = (async () => {
        try {
          await work();
        } finally {
          running.delete(key);
          burst.noted();
        }
      })();
      running.set(key, run);
      return run;
    },
    noted() {
      last = now();
    },
    async settled() {
      for (;;) {
        if (running.size > 0) await Promise.allSettled([...running.values()]);
        else if (now() - last < quietMs) await sleep(quietMs - (now() - last));
        else return;
      }
    },
    afterBurst(job) {
      // (one run at a time: a run asked for while one runs starts after it)
      const coalesced = coalesce(job);
      let waiting: Promise<void> | null = null;
      return () =>
        (waiting ??= burst.settled().then(() => {
          waiting = null;
          return coalesced();
        }));
    },
  };
  return burst;
}

// A burst of removals (app/features/deactivation/burst.ts, ADR 0056): someone deactivated from fifty
// conversations sends a member's page fifty "member-deactivated" and fifty "memberships" events. Each
// conversation's removal runs once, and the lists reload once, after the last removal.
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { removalBurst } from "../../app/features/deactivation/burst";

const QUIET = 250;

/** A removal that finishes when the test says so. */
function pending() {
  let finish: () => void = () => {};
  const done = new Promise<void>((resolve) => (finish = resolve));
  return { done, finish };
}

describe("a burst of removals", () => {
  beforeEach(() => void vi.useFakeTimers());
  afterEach(() => void vi.useRealTimers());

  it("runs each conversation's removal once and reloads the lists once, after the last removal", async () => {
    const burst = removalBurst(QUIET);
    const log: string[] = [];
    const reload = burst.afterBurst(async () => void log.push("reload"));
    const removals = Array.from({ length: 50 }, pending);
    const runs = new Map<string, number>();
    const reloads: Promise<void>[] = [];
    const removed: Promise<void>[] = [];
    for (const [i, removal] of removals.entries()) {
      const key = `conversation${i}:carol`;
      const work = async () => {
        runs.set(key, (runs.get(key) ?? 0) + 1);
        await removal.done;
        log.push(`removed ${i}`);
      };
      burst.noted();
      reloads.push(reload());
      removed.push(burst.remove(key, work));
      // the same event again (a second stream, a repeated frame): it joins the removal under way
      removed.push(burst.remove(key, work));
    }
    expect([...runs.values()]).toEqual(Array(50).fill(1));
    // the removals finish one by one, long after the events
    for (const removal of removals) {
      await vi.advanceTimersByTimeAsync(QUIET * 2);
      expect(log).not.toContain("reload");
      removal.finish();
    }
    await Promise.all(removed);
    await vi.advanceTimersByTimeAsync(QUIET);
    await Promise.all(reloads);
    expect(log.filter((line) => line === "reload")).toHaveLength(1);
    expect(log.at(-1)).toBe("reload");
    expect(log.indexOf("reload")).toBe(50);
  });

  it("a lone membership change reloads once the events stopped; a call made while the reload runs gets another", async () => {
    const burst = removalBurst(QUIET);
    let runs = 0;
    let finishRun: () => void = () => {};
    const reload = burst.afterBurst(() => {
      runs++;
      return new Promise<void>((resolve) => (finishRun = resolve));
    });
    burst.noted();
    const first = reload();
    await vi.advanceTimersByTimeAsync(QUIET - 1);
    expect(runs).toBe(0);
    await vi.advanceTimersByTimeAsync(1);
    expect(runs).toBe(1);
    // (not in a burst: a call waits for nothing but the run under way)
    const second = reload();
    await vi.advanceTimersByTimeAsync(0);
    expect(runs).toBe(1);
    finishRun();
    await first;
    await vi.advanceTimersByTimeAsync(0);
    expect(runs).toBe(2);
    finishRun();
    await second;
  });

  it("a removal that fails still ends the burst", async () => {
    const burst = removalBurst(QUIET);
    let reloaded = false;
    const reload = burst.afterBurst(async () => void (reloaded = true));
    const failing = burst.remove("c1:carol", () => Promise.reject(new Error("busy")));
    const after = reload();
    await expect(failing).rejects.toThrow("busy");
    await vi.advanceTimersByTimeAsync(QUIET);
    await after;
    expect(reloaded).toBe(true);
  });
});

// A burst of calls to a coalesced job runs it at most twice, and the last call always waits for a run
// that started after it (app/lib/coalesce.ts).
import { describe, expect, it } from "vitest";
import { coalesce } from "../../app/lib/coalesce";

const tick = () => new Promise((resolve) => setTimeout(resolve, 5));

describe("coalesce", () => {
  it("runs a burst of fifty calls twice, the second run after the last call", async () => {
    const runs: number[] = [];
    let calls = 0;
    const job = coalesce(async () => {
      runs.push(calls);
      await tick();
    });
    const all: Promise<void>[] = [];
    for (let i = 0; i < 50; i++) {
      calls++;
      all.push(job());
    }
    await Promise.all(all);
    expect(runs).toEqual([1, 50]);
    // quiet again: the next call runs at once
    calls++;
    await job();
    expect(runs).toEqual([1, 50, 51]);
  });

  it("a failing run rejects its callers, and the next run still happens", async () => {
    let attempt = 0;
    const job = coalesce(async () => {
      attempt++;
      await tick();
      if (attempt === 1) throw new Error("first fails");
    });
    const first = job();
    const second = job();
    await expect(first).rejects.toThrow("first fails");
    await expect(second).resolves.toBeUndefined();
    expect(attempt).toBe(2);
  });
});

import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { appendRun, runEntry } from "../../bench/lib/run-log.mjs";

const rows = [
  ["capacity at 50 msg/s (p99 < 250 ms, nothing lost)", "not measured (not selected (BENCH_PHASES))", "—", "≥ 10,000 clients", "**no**"],
  ["history: open channel, the newest messages in view", "126 ms", "—", "≤ 150 ms", "yes"],
  ["sign-in (click to workspace)", "612 ms", "PBKDF2 600k in Node 137 ms", "≤ 500 ms", "**no**"],
  ["first load CSS (gzip)", "7.9 KB", "37.5 KB raw", "—", "—"],
];
const run = (started: string) => ({ started, code: "abc1234", quick: false, phases: ["browser"] });

describe("the bench's run log (docs/benchmarks.md, every run)", () => {
  it("lists the figures a run measured, with their targets, and leaves out the rest", () => {
    const entry = runEntry(run("2026-11-29T15:00:00.000Z"), rows, 0);
    expect(entry).toMatch(/^- 2026-11-29T15:00:00.000Z, commit abc1234, full sizes, phases browser, load average [\d.]+ at the end:/);
    expect(entry).toContain("  - history: open channel, the newest messages in view: 126 ms (target ≤ 150 ms)");
    expect(entry).toContain("  - sign-in (click to workspace): 612 ms (target ≤ 500 ms, not met)");
    expect(entry.split("\n")).toContain("  - first load CSS (gzip): 7.9 KB");
    expect(entry).not.toContain("capacity");
  });

  it("adds each run after the ones before it and keeps the rest of the file", () => {
    const root = mkdtempSync(path.join(os.tmpdir(), "chatcrypt-bench-log-"));
    mkdirSync(path.join(root, "docs"));
    const file = path.join(root, "docs", "benchmarks.md");
    writeFileSync(file, "# Benchmarks\n\nSomething written by hand.\n");
    appendRun(root, runEntry(run("2026-11-29T15:00:00.000Z"), rows, 0));
    appendRun(root, runEntry(run("2026-11-29T16:00:00.000Z"), rows, 0));
    const doc = readFileSync(file, "utf8");
    expect(doc.startsWith("# Benchmarks\n\nSomething written by hand.\n")).toBe(true);
    const first = doc.indexOf("- 2026-11-29T15:00:00.000Z");
    const second = doc.indexOf("- 2026-11-29T16:00:00.000Z");
    expect(first).toBeGreaterThan(doc.indexOf("<!-- bench:runs:start -->"));
    expect(second).toBeGreaterThan(first);
    expect(doc.indexOf("<!-- bench:runs:end -->")).toBeGreaterThan(second);
  });
});

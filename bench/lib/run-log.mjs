// "Every run" in docs/benchmarks.md: each run of the bench adds one entry (its date, commit, phases,
// how busy the rest of the machine was, and every figure it measured), so a figure's spread over runs
// stays on record, not only the latest run's (issue 49). Entries are added at the end of the list
// between the markers; nothing before them is rewritten.
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";

const START = "<!-- bench:runs:start -->";
const END = "<!-- bench:runs:end -->";

/** Whether the run had measuring windows (latency, fan-out, capacity), where the other processes' use is sampled. */
export const hasWindows = (r) => ["latency", "fanout", "capacity"].some((phase) => (r.phases ?? []).includes(phase));

/**
 * One entry: the rows of the run's table that hold a figure (rows reading "not measured" or "not
 * reached" are left out).
 * @param {{ started: string, code?: string, quick?: boolean, phases?: string[] }} r the run's results
 * @param {string[][]} rows the table's rows: figure, measured, baseline, target, met?
 * @param {number} otherPercent the most the rest of the machine used during the measuring windows
 */
export function runEntry(r, rows, otherPercent) {
  const measured = rows.filter(([, value]) => !/^not measured|not reached/.test(value));
  const busy = hasWindows(r) ? `, other processes at most ${Math.round(otherPercent)}% of a core in the measuring windows` : "";
  const head = `- ${r.started}, commit ${r.code ?? "unknown"}, ${r.quick ? "quick" : "full sizes"}, phases ${(r.phases ?? []).join("+") || "all"}${busy}, load average ${os.loadavg()[0].toFixed(1)} at the end:`;
  return [
    head,
    ...measured.map(
      ([figure, value, , target, met]) =>
        `  - ${figure}: ${value}${target && target !== "—" ? ` (target ${target}${met === "**no**" ? ", not met" : ""})` : ""}`,
    ),
  ].join("\n");
}

/** Adds the entry to docs/benchmarks.md's run log, making the section when the file has none. */
export function appendRun(root, entry) {
  const file = path.join(root, "docs", "benchmarks.md");
  let doc = existsSync(file) ? readFileSync(file, "utf8") : "# Benchmarks\n";
  if (!doc.includes(START) || !doc.includes(END)) {
    doc = `${doc.trimEnd()}\n\n## Every run\n\nEach run of \`npm run bench\` adds its figures here (bench/lib/run-log.mjs).\n\n${START}\n${END}\n`;
  }
  const at = doc.indexOf(END);
  const before = doc.slice(0, at).trimEnd();
  writeFileSync(file, `${before}\n\n${entry}\n\n${doc.slice(at)}`);
}

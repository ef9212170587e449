import { describe, expect, it } from "vitest";
import { machineNote } from "../../bench/lib/report.mjs";

// The line under "Latest run" says what the run knows of the rest of the machine, and nothing more.
describe("the bench's word on the rest of the machine", () => {
  it("claims nothing about other processes when no phase sampled them (the browser phase alone)", () => {
    const note = machineNote({ phases: ["browser"] }, 0, 3.48);
    expect(note).not.toMatch(/at most 0%/);
    expect(note).toContain("not measured");
    expect(note).toContain("the load average was 3.5 at the end");
  });

  it("gives the other processes' most in the measuring windows, and calls a busy run noisy", () => {
    expect(machineNote({ phases: ["latency", "browser"] }, 4, 0.5)).toBe(
      "Other processes used at most 4% of a core during the measuring windows.",
    );
    expect(machineNote({ phases: ["capacity"] }, 85, 0.5)).toMatch(
      /^Other processes on the machine used up to 85% of a core .* so the figures are noisy/,
    );
  });
});

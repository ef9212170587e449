import { existsSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { SLOWEST } from "../slow-first";

describe("the slowest test files, started first", () => {
  it("names files that exist (a renamed one would silently go back to the end)", () => {
    for (const file of SLOWEST) expect(existsSync(file), file).toBe(true);
  });
});

import { execFileSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";

// scripts/test-summary.mjs: the closing line of `npm test`, after the slowest tests of both runners.
const dir = mkdtempSync(path.join(os.tmpdir(), "chatcrypt-summary-"));
const vitestReport = path.join(dir, "vitest.json");
const playwrightReport = path.join(dir, "e2e.json");

writeFileSync(
  vitestReport,
  JSON.stringify({
    numPassedTests: 12,
    numFailedTests: 0,
    testResults: [
      {
        name: "/repo/tests/integration/slow.test.ts",
        assertionResults: Array.from({ length: 12 }, (_, i) => ({ fullName: `vitest case ${i}`, duration: 1_000 * (i + 1) })),
      },
    ],
  }),
);
writeFileSync(
  playwrightReport,
  JSON.stringify({
    stats: { expected: 2, unexpected: 0, flaky: 0, skipped: 0 },
    suites: [
      {
        specs: [
          { file: "a.spec.ts", line: 3, title: "browser one", tests: [{ status: "expected", results: [{ duration: 90_000 }] }] },
          { file: "b.spec.ts", line: 7, title: "browser two", tests: [{ status: "expected", results: [{ duration: 80_000 }] }] },
        ],
      },
    ],
  }),
);

const run = () => execFileSync("node", ["scripts/test-summary.mjs", vitestReport, playwrightReport], { encoding: "utf8" });

describe("the test summary", () => {
  it("names the ten slowest tests of both runners together, then each runner's ten, and counts every test", () => {
    const out = run();
    const [together, vitest, playwright] = ["slowest tests:", "slowest vitest tests:", "slowest playwright tests:"].map((h) => {
      const lines = out.split("\n");
      const start = lines.indexOf(h);
      expect(start, h).toBeGreaterThanOrEqual(0);
      const block: string[] = [];
      for (const line of lines.slice(start + 1)) {
        if (!line.startsWith("  ")) break;
        block.push(line.trim());
      }
      return block;
    });
    expect(together).toHaveLength(10);
    expect(together[0]).toBe("90.0 s  playwright a.spec.ts:3 browser one");
    expect(together[2]).toBe("12.0 s  vitest tests/integration/slow.test.ts vitest case 11");
    // the browser tests fill the first places, and vitest's own slowest are still named
    expect(vitest).toHaveLength(10);
    expect(vitest[0]).toBe("12.0 s  vitest tests/integration/slow.test.ts vitest case 11");
    expect(vitest[9]).toBe("3.0 s  vitest tests/integration/slow.test.ts vitest case 2");
    expect(playwright).toEqual(["90.0 s  playwright a.spec.ts:3 browser one", "80.0 s  playwright b.spec.ts:7 browser two"]);
    expect(out.trim().split("\n").at(-1)).toBe("tests: 14 passed, 0 failed");
  });

  it("names every failed test again just before the closing line, with its error's first line", () => {
    const failingVitest = path.join(dir, "vitest-failed.json");
    const failingPlaywright = path.join(dir, "e2e-failed.json");
    writeFileSync(
      failingVitest,
      JSON.stringify({
        numPassedTests: 1,
        numFailedTests: 1,
        testResults: [
          {
            name: "/repo/tests/integration/broken.test.ts",
            status: "failed",
            assertionResults: [
              { fullName: "keeps working", status: "passed", duration: 10 },
              {
                fullName: "breaks",
                status: "failed",
                duration: 20,
                failureMessages: ["\u001b[31mAssertionError: expected 1 to be 2\u001b[39m\n    at x.ts:1"],
              },
            ],
          },
          { name: "/repo/tests/unit/import.test.ts", status: "failed", message: "\nCannot find module './gone'", assertionResults: [] },
        ],
      }),
    );
    writeFileSync(
      failingPlaywright,
      JSON.stringify({
        stats: { expected: 0, unexpected: 1 },
        suites: [
          {
            specs: [
              {
                file: "c.spec.ts",
                line: 9,
                title: "browser three",
                tests: [
                  {
                    status: "unexpected",
                    projectName: "shell",
                    results: [
                      { duration: 5, error: { message: "first try" } },
                      { duration: 5, error: { message: "Error: timed out\nmore" } },
                    ],
                  },
                ],
              },
            ],
          },
        ],
      }),
    );
    let out = "";
    try {
      execFileSync("node", ["scripts/test-summary.mjs", failingVitest, failingPlaywright], { encoding: "utf8" });
    } catch (error) {
      out = String((error as { stdout?: string }).stdout);
    }
    const lines = out.trim().split("\n");
    expect(lines.slice(-5)).toEqual([
      "failed tests:",
      "  vitest tests/integration/broken.test.ts breaks: AssertionError: expected 1 to be 2",
      "  vitest tests/unit/import.test.ts: Cannot find module './gone'",
      "  playwright c.spec.ts:9 browser three [shell]: Error: timed out",
      "tests: 1 passed, 2 failed",
    ]);
  });
});

import { relative } from "node:path";
import { BaseSequencer, type TestSpecification } from "vitest/node";

/**
 * The test files that take longest (seconds in a fresh-clone CI run on two cores, 2026-12-05), started
 * first. A fresh clone has no timings of earlier runs, and vitest then starts the largest files first:
 * `go-units.test.ts` (short, but it compiles and runs the Go tests) started last and ran 44 s alone
 * while the other workers had nothing left. Longest first lets the short files fill in around them.
 */
export const SLOWEST = [
  "tests/integration/hostile.test.ts", // 88
  "tests/integration/go-units.test.ts", // 44
  "tests/integration/crowd-and-guessing.test.ts", // 42
  "tests/integration/call-records.test.ts", // 42
  "tests/integration/sso-leavers.test.ts", // 40
  "tests/integration/key-package-caps.test.ts", // 31
  "tests/integration/admin-console-routes.test.ts", // 30
  "tests/integration/refused-session.test.ts", // 23
  "tests/integration/replication-health.test.ts", // 20
  "tests/integration/replication.test.ts", // 19
  "tests/integration/prototype-sweep.test.ts", // 15
];

/** vitest's own order (earlier failures, then earlier timings, then size), the slowest known files first. */
export default class SlowFirst extends BaseSequencer {
  async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const rank = (file: TestSpecification) => {
      const at = SLOWEST.indexOf(relative(this.ctx.config.root, file.moduleId));
      return at < 0 ? SLOWEST.length : at;
    };
    return [...sorted].sort((a, b) => rank(a) - rank(b));
  }
}

// Adds up the vitest and Playwright JSON reports into one closing line: "tests: N passed, N failed".
import { existsSync, readFileSync } from "node:fs";

const [vitestPath, playwrightPath] = process.argv.slice(2);
let passed = 0;
let failed = 0;
let skipped = 0;
let flaky = 0;
let missing = false;

if (vitestPath && existsSync(vitestPath)) {
  const report = JSON.parse(readFileSync(vitestPath, "utf8"));
  passed += report.numPassedTests ?? 0;
  failed += (report.numFailedTests ?? 0) + (report.numRuntimeErrorTestSuites ?? 0);
  skipped += (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0);
} else missing = true;

if (playwrightPath && existsSync(playwrightPath)) {
  const report = JSON.parse(readFileSync(playwrightPath, "utf8"));
  const stats = report.stats ?? {};
  passed += stats.expected ?? 0;
  failed += stats.unexpected ?? 0;
  skipped += stats.skipped ?? 0;
  // failed once, passed on the retry CI allows (playwright.config.ts): named, so that it gets looked at
  flaky = stats.flaky ?? 0;
  for (const title of flakyTitles(report.suites ?? [])) console.log(`flaky (failed, then passed on its retry): ${title}`);
} else missing = true;

if (missing) {
  console.log("A test report is missing: a test runner did not finish.");
  failed += 1;
}
console.log(`tests: ${passed} passed, ${failed} failed${flaky ? `, ${flaky} flaky` : ""}${skipped ? `, ${skipped} skipped` : ""}`);
process.exit(failed > 0 || passed === 0 ? 1 : 0);

/** The tests Playwright reports as flaky, "file:line title". */
function flakyTitles(suites) {
  return suites.flatMap((suite) => [
    ...(suite.specs ?? []).flatMap((spec) =>
      spec.tests.filter((test) => test.status === "flaky").map(() => `${spec.file}:${spec.line} ${spec.title}`),
    ),
    ...flakyTitles(suite.suites ?? []),
  ]);
}

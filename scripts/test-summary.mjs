// Adds up the vitest and Playwright JSON reports into one closing line: "tests: N passed, N failed",
// after the ten slowest tests of both runners together and of each runner, with their times.
import { existsSync, readFileSync } from "node:fs";

const [vitestPath, playwrightPath] = process.argv.slice(2);
let passed = 0;
let failed = 0;
let skipped = 0;
let flaky = 0;
let missing = false;
/** [milliseconds, "runner file title"] of every test that ran */
const timings = [];
/** "runner file title: first line of its error" of every test that failed, named again at the end */
const failures = [];

if (vitestPath && existsSync(vitestPath)) {
  const report = JSON.parse(readFileSync(vitestPath, "utf8"));
  passed += report.numPassedTests ?? 0;
  failed += (report.numFailedTests ?? 0) + (report.numRuntimeErrorTestSuites ?? 0);
  skipped += (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0);
  for (const file of report.testResults ?? [])
    for (const test of file.assertionResults ?? []) {
      const title = `vitest ${relative(file.name)} ${test.fullName ?? test.title}`;
      if (typeof test.duration === "number") timings.push([test.duration, title]);
      if (test.status === "failed") failures.push(`${title}: ${firstLine(test.failureMessages?.[0])}`);
    }
  // a file that failed outside its tests (its setup, an import) counts as one failure
  for (const file of report.testResults ?? [])
    if (file.status === "failed" && !(file.assertionResults ?? []).some((test) => test.status === "failed"))
      failures.push(`vitest ${relative(file.name)}: ${firstLine(file.message)}`);
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
  for (const [ms, title] of playwrightTimings(report.suites ?? [])) timings.push([ms, `playwright ${title}`]);
  for (const failure of playwrightFailures(report.suites ?? [])) failures.push(`playwright ${failure}`);
  // errors outside any test (a worker's or a fixture's teardown, global setup) fail the run too
  for (const error of report.errors ?? []) {
    failed += 1;
    console.log(
      `playwright error outside the tests: ${String(error.message ?? error.value ?? "")
        .split("\n")
        .slice(0, 8)
        .join("\n  ")}`,
    );
  }
} else missing = true;

const exits = [];
// a runner that exited with a failure although no test of it failed: say which, so the run's end explains it
for (const [runner, exit] of [
  ["vitest", process.env.VITEST_EXIT],
  ["playwright", process.env.PLAYWRIGHT_EXIT],
]) {
  if (exit && exit !== "0") exits.push(`${runner} exited with code ${exit}`);
}

// the ten slowest of all, then each runner's own ten (the browser tests would otherwise hide vitest's)
printSlowest("slowest tests:", timings);
for (const runner of ["vitest", "playwright"])
  printSlowest(
    `slowest ${runner} tests:`,
    timings.filter(([, title]) => title.startsWith(`${runner} `)),
  );

// the failures last, beside the closing line, where a log's tail shows them
if (failures.length > 0) {
  console.log("failed tests:");
  for (const failure of failures) console.log(`  ${failure}`);
}

if (missing) {
  console.log("A test report is missing: a test runner did not finish.");
  failed += 1;
}
console.log(
  `tests: ${passed} passed, ${failed} failed${flaky ? `, ${flaky} flaky` : ""}${skipped ? `, ${skipped} skipped` : ""}${exits.length ? ` (${exits.join(", ")})` : ""}`,
);
process.exit(failed > 0 || passed === 0 || exits.length > 0 ? 1 : 0);

/** Prints a heading and the ten longest of these [milliseconds, title] timings, longest first. */
function printSlowest(heading, list) {
  if (list.length === 0) return;
  console.log(heading);
  for (const [ms, title] of [...list].sort((a, b) => b[0] - a[0]).slice(0, 10))
    console.log(`  ${(ms / 1000).toFixed(1).padStart(6)} s  ${title}`);
}

/** The tests Playwright reports as flaky, "file:line title". */
function flakyTitles(suites) {
  return suites.flatMap((suite) => [
    ...(suite.specs ?? []).flatMap((spec) =>
      spec.tests.filter((test) => test.status === "flaky").map(() => `${spec.file}:${spec.line} ${spec.title}`),
    ),
    ...flakyTitles(suite.suites ?? []),
  ]);
}

/** Each Playwright test's time: the sum of its attempts (a retried test cost both). */
function playwrightTimings(suites) {
  return suites.flatMap((suite) => [
    ...(suite.specs ?? []).flatMap((spec) =>
      spec.tests.map((test) => [
        (test.results ?? []).reduce((sum, result) => sum + (result.duration ?? 0), 0),
        `${spec.file}:${spec.line} ${spec.title}${test.projectName ? ` [${test.projectName}]` : ""}`,
      ]),
    ),
    ...playwrightTimings(suite.suites ?? []),
  ]);
}

/** The tests Playwright reports as failed (on every attempt), "file:line title [project]: error". */
function playwrightFailures(suites) {
  return suites.flatMap((suite) => [
    ...(suite.specs ?? []).flatMap((spec) =>
      spec.tests
        .filter((test) => test.status === "unexpected")
        .map((test) => {
          const last = (test.results ?? []).at(-1);
          return `${spec.file}:${spec.line} ${spec.title}${test.projectName ? ` [${test.projectName}]` : ""}: ${firstLine(last?.error?.message)}`;
        }),
    ),
    ...playwrightFailures(suite.suites ?? []),
  ]);
}

/** An error's first line that says something, without terminal colours, at most 200 characters. */
function firstLine(message) {
  const plain = String(message ?? "")
    // eslint-disable-next-line no-control-regex
    .replace(/\u001b\[[0-9;]*m/g, "")
    .split("\n")
    .map((line) => line.trim())
    .find((line) => line.length > 0);
  return (plain ?? "(no message)").slice(0, 200);
}

/** A path from the repository's root. */
function relative(file) {
  const at = file.indexOf("/tests/");
  return at >= 0 ? file.slice(at + 1) : file;
}

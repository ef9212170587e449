import { defineConfig } from "@playwright/test";

const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
// (CHROMIUM_PATH alone runs everything in that browser)
const SHELL_PATH = process.env.CHROMIUM_SHELL_PATH ?? (process.env.CHROMIUM_PATH ? CHROMIUM_PATH : "/usr/bin/chromium-headless-shell");
const CHROMIUM_ARGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
  "--disable-quic",
  "--use-fake-device-for-media-stream",
  "--use-fake-ui-for-media-stream",
];
/** The specs that need the desktop browser (see projects below). */
const FULL_BROWSER = [
  "**/pwa.spec.ts",
  "**/push.spec.ts",
  "**/push-sessions.spec.ts",
  "**/notify-rules.spec.ts",
  "**/translate-notify.spec.ts",
  "**/calls-ring.spec.ts",
  "**/calls.spec.ts",
  "**/calls-view.spec.ts",
  "**/calls-phone.spec.ts",
  "**/calls-muted.spec.ts",
  "**/notify-offer.spec.ts",
  "**/notify-offer-thread.spec.ts",
  "**/verify-email.spec.ts",
  "**/keyring.spec.ts",
  "**/errors.spec.ts",
  "**/keyboard.spec.ts",
  "**/typing.spec.ts",
  "**/threads.spec.ts",
  "**/thread-notify.spec.ts",
];

// End-to-end tests in Debian's chromium (browsers cannot be downloaded here). The global setup starts
// the real PocketBase on a temporary data directory and the production web server on free ports.
export default defineConfig({
  testDir: "tests/e2e",
  testMatch: "**/*.spec.ts",
  globalSetup: "./tests/e2e/global-setup.ts",
  // Every test stands alone (its own accounts and channels), so the tests of one file may run on
  // different workers: the long files (three viewports of the accessibility audit) no longer end the run
  // on one worker while the other waits.
  fullyParallel: true,
  // Two workers, each with its own stack (global-setup.ts); E2E_WORKERS changes it.
  workers: Number(process.env.E2E_WORKERS ?? 2),
  // In CI a failed test runs once more and, passing then, is reported as flaky (list and reports/e2e.json)
  // rather than failing the run; locally every failure counts.
  retries: process.env.CI ? 1 : 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: [["list"], ["json", { outputFile: "reports/e2e.json" }]],
  use: {
    browserName: "chromium",
    launchOptions: { args: CHROMIUM_ARGS },
    // A trace records every action's page and a screencast of every page: about a quarter of a browser
    // test's processor time on two cores (the browser encodes the frames, the worker stores them). In CI
    // it is recorded for a failed test's retry (kept then, with the first attempt's screenshot);
    // locally, where a failure is not retried, for every test and kept when it fails.
    trace: process.env.CI ? "on-first-retry" : "retain-on-failure",
    screenshot: "only-on-failure",
  },
  // Most tests run in Chromium's headless shell (the same engine without the desktop browser's
  // windowing: about a sixth less processor time); what needs the desktop browser's own parts
  // (service worker push, notifications and their permission, the installed app, a call's encrypted
  // frames beside a shared screen) runs in the full browser, as users have it.
  projects: [
    {
      name: "shell",
      testIgnore: FULL_BROWSER,
      use: { launchOptions: { executablePath: SHELL_PATH, args: CHROMIUM_ARGS } },
    },
    {
      name: "chromium",
      testMatch: FULL_BROWSER,
      use: { launchOptions: { executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS } },
    },
  ],
});

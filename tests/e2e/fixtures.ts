import { test as base, expect, type BrowserContext, type Page } from "@playwright/test";
import { randomBytes } from "node:crypto";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";

// This worker's stack (global-setup.ts starts one per worker): its addresses become the E2E_*
// variables every test reads, before any spec's own code runs (every spec imports this file).
const stacks = JSON.parse(process.env.E2E_STACKS ?? "[]") as Record<string, string>[];
if (stacks.length > 0) Object.assign(process.env, stacks[Number(process.env.TEST_PARALLEL_INDEX ?? 0) % stacks.length]);

export interface TestUser {
  username: string;
  email: string;
  password: string;
}

export function newUser(prefix = "user"): TestUser {
  const tag = randomBytes(4).toString("hex");
  return { username: `${prefix}_${tag}`, email: `${prefix}.${tag}@example.test`, password: `pw-${randomBytes(9).toString("base64url")}` };
}

/**
 * The console errors of a test's pages: they fail the test, except the lines Chromium prints for 4xx
 * answers and those the test says it causes on purpose (`allow`: a cut network, a stopped call server).
 */
export interface ConsoleErrors {
  allow(pattern: RegExp): void;
}

/** What Chromium prints for a request that never got an answer (the network cut, the server stopped). */
export const NO_ANSWER = /^Failed to load resource: net::ERR_/;

/** What LiveKit's decoder prints for a frame sealed with a key the page does not (yet) have. */
export const MISSING_CALL_KEY = /^MissingKey: missing key at index \d+ for participant /;

/**
 * What LiveKit's client prints on the page of someone the server removes from a call (a member removed,
 * a person deactivated) when the call server closes the page's data channels before its notice of the
 * removal is read: a race inside LiveKit (deactivate.spec.ts: 3 of 16 runs here, once in CI).
 */
/**
 * What LiveKit's client prints when a track reaches the page for a participant who has just left (two
 * people hanging up in the same second: calls-view.spec.ts, once in 8 CI runs).
 */
export const TRACK_OF_GONE_PARTICIPANT = /^Tried to add a track for a participant, that's not present\./;

export const REMOVED_FROM_CALL =
  /^(DataChannel error on (lossy|reliable): User-Initiated Abort|publisher data channel '\w+' closed unexpectedly)/;

export const test = base.extend<{ consoleErrors: ConsoleErrors; closeContexts: void }>({
  // Playwright reads a fixture's dependencies from its destructuring pattern; this one has none.
  // eslint-disable-next-line no-empty-pattern
  baseURL: async ({}, use) => use(process.env.E2E_BASE_URL),
  // Every context of the test is watched: the default one and each a test opens (a person's device).
  consoleErrors: [
    async ({ context, browser }, use) => {
      const errors: string[] = [];
      const allowed: RegExp[] = [];
      const watch = (watched: BrowserContext) => {
        watched.on("console", (message) => {
          if (message.type() !== "error") return;
          const text = message.text();
          if (/Failed to load resource: the server responded with a status of 4\d\d/.test(text)) return;
          // (a failed load names its address: the error alone does not say which request it was)
          const at = message.location().url;
          errors.push(text.startsWith("Failed to load resource") && at ? `${text} (${at})` : text);
        });
        // (an error the page left uncaught, with where it was thrown)
        watched.on("weberror", (error) => errors.push(`uncaught: ${error.error().stack ?? String(error.error())}`));
        return watched;
      };
      watch(context);
      const newContext = browser.newContext.bind(browser);
      browser.newContext = async (options) => watch(await newContext(options));
      try {
        await use({ allow: (pattern) => void allowed.push(pattern) });
      } finally {
        browser.newContext = newContext;
      }
      const unexpected = errors.filter((text) => !allowed.some((pattern) => pattern.test(text)));
      expect(unexpected, "console errors in the browser").toEqual([]);
    },
    { auto: true },
  ],
  // The browser is the worker's: contexts a test opened on it and left open (a failed test stops
  // before its own close) would go on talking to this worker's stack during the tests after it.
  closeContexts: [
    async ({ browser }, use) => {
      const before = new Set(browser.contexts());
      await use();
      await Promise.all(
        browser
          .contexts()
          .filter((context) => !before.has(context))
          .map((context) => context.close().catch(() => undefined)),
      );
    },
    { auto: true },
  ],
});

export { expect };

export async function openAuth(page: Page) {
  await page.goto("/");
  await expect(page.getByText("End-to-end encrypted messaging")).toBeVisible();
}

export async function signUp(page: Page, user: TestUser) {
  await openAuth(page);
  // An invite opens Sign Up by default; otherwise the page starts on Sign In.
  await expect(page.getByRole("heading", { name: /^Sign (In|Up)$/ })).toBeVisible();
  const toSignUp = page.getByRole("button", { name: "Don't have an account? Sign up" });
  if (await toSignUp.isVisible()) await toSignUp.click();
  await page.getByLabel("Username").fill(user.username);
  await page.getByLabel("Email").fill(user.email);
  await page.getByLabel("Password").fill(user.password);
  await page.getByRole("button", { name: "Sign Up", exact: true }).click();
  // Attached, not visible: on a phone the account sits in the closed channel drawer.
  await expect(page.getByText(`@${user.username}`)).toBeAttached({ timeout: 20_000 });
  await notNowRecoveryKey(page);
}

/** A new account is offered a recovery key right after sign-up: "Not now", then "Continue without it". */
export async function notNowRecoveryKey(page: Page) {
  const offer = page.getByRole("dialog", { name: "Save your recovery key" });
  await offer.getByRole("button", { name: "Not now" }).click();
  const skip = page.getByRole("dialog", { name: "Continue without a recovery key?" });
  await skip.getByRole("button", { name: "Continue without it" }).click();
  await expect(skip).toBeHidden();
}

export async function signIn(page: Page, user: Pick<TestUser, "email" | "password">) {
  await openAuth(page);
  await page.getByLabel("Email").fill(user.email);
  await page.getByLabel("Password").fill(user.password);
  await page.getByRole("button", { name: "Sign In", exact: true }).click();
}

/** Every file under a directory, read as bytes, for canary searches. */
export function filesUnder(dir: string): { path: string; bytes: Buffer }[] {
  const out: { path: string; bytes: Buffer }[] = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    const stat = statSync(path);
    if (stat.isDirectory()) out.push(...filesUnder(path));
    else out.push({ path, bytes: readFileSync(path) });
  }
  return out;
}

/** Paths of files under the given directories whose bytes contain the needle (as UTF-8). */
export function filesContaining(dirs: string[], needle: string): string[] {
  const pattern = Buffer.from(needle, "utf8");
  return dirs.flatMap((dir) =>
    filesUnder(dir)
      .filter((f) => f.bytes.includes(pattern))
      .map((f) => f.path),
  );
}

/** Signs out through the account button and its confirmation. */
export async function signOut(page: Page) {
  await page.getByRole("button", { name: /sign out/i }).click();
  const dialog = page.getByRole("dialog", { name: "Sign out?" });
  await dialog.getByRole("button", { name: "Sign out", exact: true }).click();
  await expect(dialog).toBeHidden();
  // The dialog closes at once; signing out (archive, push, the server's revocation) ends with the sign-in
  // screen. Leaving the page before then would cut the revocation short.
  await expect(page.getByText("End-to-end encrypted messaging")).toBeVisible({ timeout: 30_000 });
}

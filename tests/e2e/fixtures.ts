import { test as base, expect, type Page } from "@playwright/test";
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

/** Browser console errors fail a test, except the network lines Chromium prints for expected 4xx answers. */
export const test = base.extend<{ consoleErrors: string[]; closeContexts: void }>({
  // Playwright reads a fixture's dependencies from its destructuring pattern; this one has none.
  // eslint-disable-next-line no-empty-pattern
  baseURL: async ({}, use) => use(process.env.E2E_BASE_URL),
  consoleErrors: [
    async ({ context }, use) => {
      const errors: string[] = [];
      context.on("console", (message) => {
        if (message.type() !== "error") return;
        const text = message.text();
        if (/Failed to load resource: the server responded with a status of 4\d\d/.test(text)) return;
        // (a failed load names its address: the error alone does not say which request it was)
        const at = message.location().url;
        errors.push(text.startsWith("Failed to load resource") && at ? `${text} (${at})` : text);
      });
      context.on("weberror", (error) => errors.push(String(error.error())));
      await use(errors);
      expect(errors, "console errors in the browser").toEqual([]);
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

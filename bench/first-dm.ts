// A DM created one second after the other's sign-up (BENCH_PHASES=first-dm, part of `npm run bench`; run
// with vite-node; ADR 47): the production web server and PocketBase with `npm start`'s settings, and
// Debian's chromium. Bob signs up through the invite link of Alice's team channel (his device sends
// its key packages during sign-up) and lands in it, so he is her colleague and her DM reaches him at
// once (ADR 52); one second after he is in the channel, Alice (signed up before, "New message" open)
// looks him up, starts a one-to-one and sends; Bob opens it from his sidebar. Measured per run: Bob's sign-up (click to
// workspace), Alice's start (click to the conversation open), and start to the first message read on
// Bob's page. Appends its section to docs/benchmarks-direct.md.
import { readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { chromium, type Browser, type Page } from "@playwright/test";
import { repoRoot, startPocketBase } from "../tests/integration/pocketbase";
import { startWeb } from "../tests/e2e/stack";
import { percentile } from "./lib/stats.mjs";

const RUNS = process.env.BENCH_QUICK === "1" ? 3 : 7;
const READ_TIMEOUT_MS = 20_000;
const log = (line: string) => console.log(`[first-dm] ${line}`);
const tag = () => Math.random().toString(16).slice(2, 10);

const TEAM = "Team";

/**
 * Signs a new user up in a new context (through an invite link, when given: then also waits until the
 * invite's channel is open); answers the page and the sign-up's click-to-workspace time.
 */
async function signUp(browser: Browser, baseURL: string, name: string, invite?: string) {
  const context = await browser.newContext({ baseURL, permissions: ["clipboard-read", "clipboard-write"] });
  const page = await context.newPage();
  await page.goto(invite ?? "/");
  // (an invite opens Sign Up at once)
  if (!invite) await page.getByRole("button", { name: "Don't have an account? Sign up" }).click();
  await page.getByLabel("Username").fill(name);
  await page.getByLabel("Email").fill(`${name}@example.test`);
  await page.getByLabel("Password").fill(`pw-${name}-long-enough`);
  const clicked = Date.now();
  await page.getByRole("button", { name: "Sign Up", exact: true }).click();
  await page.getByText(`@${name}`).waitFor({ state: "attached", timeout: 30_000 });
  const ms = Date.now() - clicked;
  await page.getByRole("dialog", { name: "Save your recovery key" }).getByRole("button", { name: "Not now" }).click();
  await page.getByRole("dialog", { name: "Continue without a recovery key?" }).getByRole("button", { name: "Continue without it" }).click();
  if (invite) await page.getByRole("heading", { name: `# ${TEAM}` }).waitFor({ timeout: 30_000 });
  return { page, ms };
}

/** Alice's team channel, and its invite link (Share Link). */
async function teamLink(page: Page) {
  await page.getByRole("button", { name: "Create", exact: true }).click();
  const dialog = page.getByRole("dialog", { name: "Create Channel" });
  await dialog.getByLabel("Channel Name").fill(TEAM);
  await dialog.getByLabel("Password").fill(`team-${tag()}-long-enough`);
  await dialog.getByRole("button", { name: "Create", exact: true }).click();
  await page.getByRole("heading", { name: `# ${TEAM}` }).waitFor({ timeout: 30_000 });
  await page.getByRole("button", { name: "Share Link" }).click();
  // the invite dialog: 7 days, unlimited uses (its defaults)
  await page
    .getByRole("dialog", { name: /^Invite to #/ })
    .getByRole("button", { name: "Copy invite link" })
    .click();
  await page.getByText("Invite link copied").waitFor();
  return page.evaluate(() => navigator.clipboard.readText());
}

/** Alice starts a one-to-one with `name` and sends; answers the start's click time and how long it took. */
async function startAndSend(page: Page, name: string, text: string) {
  const dialog = page.getByRole("dialog", { name: "New message" });
  await page.getByRole("button", { name: "New message" }).click();
  await dialog.getByLabel("Find by username").fill(name);
  await dialog.getByLabel("Find by username").press("Enter");
  await dialog.getByRole("checkbox", { name, checked: true }).waitFor();
  const clicked = Date.now();
  await dialog.getByRole("button", { name: "Start conversation" }).click();
  await dialog.waitFor({ state: "hidden", timeout: 30_000 });
  const startMs = Date.now() - clicked;
  const box = page.getByLabel("Message", { exact: true });
  await box.fill(text);
  await box.press("Enter");
  return { clicked, startMs };
}

async function main() {
  const pb = await startPocketBase();
  const web = await startWeb(pb.url);
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium" });
  const rows: { signUpMs: number; startMs: number; readMs: number | null }[] = [];
  try {
    const aliceName = `alice_${tag()}`;
    const alice = await signUp(browser, web.url, aliceName);
    const link = await teamLink(alice.page);
    for (let run = 0; run < RUNS; run++) {
      const bobName = `bob_${tag()}`;
      const bob = await signUp(browser, web.url, bobName, link);
      await bob.page.waitForTimeout(1_000);
      const text = `first message ${run}`;
      const started = await startAndSend(alice.page, bobName, text);
      let readMs: number | null = null;
      try {
        await bob.page.getByRole("button", { name: `@ ${aliceName}`, exact: true }).click({ timeout: READ_TIMEOUT_MS });
        await bob.page
          .getByRole("log", { name: "Messages" })
          .locator(".message-text", { hasText: text })
          .waitFor({ timeout: READ_TIMEOUT_MS });
        readMs = Date.now() - started.clicked;
      } catch {
        // not read: recorded as such
      }
      rows.push({ signUpMs: bob.ms, startMs: started.startMs, readMs });
      log(
        `run ${run + 1}: sign-up ${bob.ms} ms; start ${started.startMs} ms; start to read ${readMs === null ? "not read" : `${readMs} ms`}`,
      );
      await bob.page.context().close();
    }
  } finally {
    await browser.close();
    await web.stop();
    await pb.stop();
  }
  const p50 = (list: number[]) => (list.length ? `${Math.round(percentile(list, 50))} ms` : "—");
  const read = rows.flatMap((r) => (r.readMs === null ? [] : [r.readMs]));
  const section = [
    "## A DM created one second after the other's sign-up",
    "",
    `Written by \`BENCH_PHASES=first-dm npm run bench\` (bench/first-dm.ts) on ${new Date().toISOString().slice(0, 10)}, ${os.cpus().length} cores (${os.cpus()[0]?.model ?? "unknown CPU"}); ${RUNS} runs, chromium against the production web server and PocketBase with \`npm start\`'s settings, everything on the same machine. Bob signs up through the invite link of Alice's team channel (his device sends its key packages during sign-up, ADR 47) and lands in it, so her DM reaches him at once (ADR 52); one second after he is in the channel, Alice starts a one-to-one with him and sends; Bob opens it from his sidebar.`,
    "",
    "| figure | measured (p50) | runs |",
    "| --- | --- | --- |",
    `| Bob's sign-up, click to workspace (key packages included) | ${p50(rows.map((r) => r.signUpMs))} | ${rows.map((r) => r.signUpMs).join(", ")} |`,
    `| Alice's start, click to the conversation open | ${p50(rows.map((r) => r.startMs))} | ${rows.map((r) => r.startMs).join(", ")} |`,
    `| start to the first message read on Bob's page | ${p50(read)} | ${rows.map((r) => (r.readMs === null ? "not read" : r.readMs)).join(", ")} |`,
    "",
  ].join("\n");
  const file = path.join(repoRoot, "docs", "benchmarks-direct.md");
  const doc = readFileSync(file, "utf8");
  const at = doc.indexOf("## A DM created one second after");
  writeFileSync(file, `${(at < 0 ? doc : doc.slice(0, at)).trimEnd()}\n\n${section}`);
  log(`written to docs/benchmarks-direct.md`);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});

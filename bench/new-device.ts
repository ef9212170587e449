// New device approval to full history shown, in chromium (BENCH_PHASES=new-device, part of `npm run
// bench`; run with vite-node; ADRs 48 and 59): the production web server and PocketBase with `npm
// start`'s settings, and Debian's chromium. Alice and Bob (colleagues through her team channel's invite)
// have a one-to-one of BENCH_NEW_DEVICE_MESSAGES messages (default 1,000) that Alice sends from her page
// and Bob's page reads (and so archives, ADR 48). Only while those are sent are PocketBase's rate limits
// off (1,000 messages are more than one person's budget for a few minutes); they are back on before any
// measurement. Then, per run, a new device of Bob's asks "Sign in with another device", his signed-in
// page shows "Approve a new device?" and both show the code; measured from the Approve click on his
// page to (1) the new device signed in, (2) the conversation open there with its newest message shown,
// and (3) its oldest message shown, the list scrolled up page after page: the full history.
// Writes its section into docs/benchmarks-direct.md.
import os from "node:os";
import path from "node:path";
import { chromium, type Browser, type Page } from "@playwright/test";
import { repoRoot, startPocketBase, superuserClient } from "../tests/integration/pocketbase";
import { startWeb } from "../tests/e2e/stack";
import { percentile } from "./lib/stats.mjs";
import { sendText, signUp, startAndSend, tag, teamLink } from "./lib/people";
import { writeSection } from "./lib/sections";

const COUNT = Number(process.env.BENCH_NEW_DEVICE_MESSAGES ?? 1000);
const RUNS = process.env.BENCH_QUICK === "1" ? 1 : 3;
const STEP_TIMEOUT_MS = 300_000;
const OPEN_OTHER = "Open ChatCrypt on a device where you are signed in and approve this one. Check that it shows the same code:";
const log = (line: string) => console.log(`[new-device] ${line}`);
const messages = (page: Page) => page.getByRole("log", { name: "Messages" });
/** The i-th message: a fixed-width number first, so no text is the start of another. */
const text = (i: number) => `m${String(i).padStart(5, "0")} of the long DM, about as long as a short chat message`;
const shown = (page: Page, i: number) => messages(page).locator(".message-text", { hasText: text(i).slice(0, 6) });

interface Run {
  signedInMs: number;
  newestMs: number;
  oldestMs: number;
}

/** One new device of Bob's, approved from his page: the three times, from the Approve click. */
async function approveOnce(browser: Browser, baseURL: string, bob: Page, bobName: string, aliceName: string): Promise<Run> {
  const context = await browser.newContext({ baseURL });
  const device = await context.newPage();
  await device.goto("/");
  await device.getByRole("button", { name: "Sign in with another device" }).click();
  await device.getByLabel("Username or email").fill(bobName);
  await device.getByRole("button", { name: "Continue" }).click();
  await device.getByText(OPEN_OTHER).waitFor({ timeout: 30_000 });
  const dialog = bob.getByRole("dialog", { name: "Approve a new device?" });
  const code = /^\d{3} \d{3}$/;
  await device.getByRole("status", { name: "Code" }).filter({ hasText: code }).waitFor({ timeout: 30_000 });
  await dialog.getByRole("status", { name: "Code" }).filter({ hasText: code }).waitFor({ timeout: 30_000 });
  const mine = await device.getByRole("status", { name: "Code" }).textContent();
  const theirs = await dialog.getByRole("status", { name: "Code" }).textContent();
  if (mine?.trim() !== theirs?.trim()) throw new Error(`the codes differ: ${mine} and ${theirs}`);

  const clicked = performance.now();
  await dialog.getByRole("button", { name: "Approve" }).click();
  await device.getByText(`@${bobName}`).waitFor({ state: "attached", timeout: STEP_TIMEOUT_MS });
  const signedInMs = performance.now() - clicked;
  await device.getByRole("button", { name: `@ ${aliceName}`, exact: true }).click({ timeout: STEP_TIMEOUT_MS });
  await shown(device, COUNT - 1).waitFor({ timeout: STEP_TIMEOUT_MS });
  const newestMs = performance.now() - clicked;
  // up the list, page after page, until the first message is there
  const list = await messages(device).elementHandle();
  await device.waitForFunction(
    ([el, first]) => {
      const found = [...el!.querySelectorAll(".message-text")].some((m) => m.textContent?.startsWith(first));
      if (!found) el!.scrollTop = 0;
      return found;
    },
    [list, text(0).slice(0, 6)] as const,
    { polling: 100, timeout: STEP_TIMEOUT_MS },
  );
  const oldestMs = performance.now() - clicked;
  await context.close();
  return { signedInMs, newestMs, oldestMs };
}

async function main() {
  const pb = await startPocketBase();
  const web = await startWeb(pb.url);
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium" });
  const runs: Run[] = [];
  let seedSeconds = 0;
  try {
    const aliceName = `alice_${tag()}`;
    const bobName = `bob_${tag()}`;
    const alice = await signUp(browser, web.url, aliceName);
    const bob = await signUp(browser, web.url, bobName, await teamLink(alice.page));

    // the one-to-one: its first message read by Bob's page (his device in the group), then the rest
    const admin = await superuserClient(pb.url, pb.superuser);
    const limits = (await admin.settings.getAll()).rateLimits;
    await admin.settings.update({ rateLimits: { ...limits, enabled: false } });
    const t0 = performance.now();
    await startAndSend(alice.page, bobName, text(0));
    await bob.page.getByRole("button", { name: `@ ${aliceName}`, exact: true }).click({ timeout: 30_000 });
    await shown(bob.page, 0).waitFor({ timeout: 30_000 });
    for (let i = 1; i < COUNT; i++) await sendText(alice.page, text(i));
    await shown(bob.page, COUNT - 1)
      .waitFor({ timeout: STEP_TIMEOUT_MS })
      .catch(async (error) => {
        for (const [who, page] of [
          ["alice", alice.page],
          ["bob", bob.page],
        ] as const)
          await page.screenshot({ path: `/tmp/new-device-${who}.png` });
        throw error;
      });
    const bobId = await bob.page.evaluate(() => JSON.parse(localStorage.getItem("chatcrypt_keys") ?? "{}").userId as string);
    const archived = async () => (await admin.collection("message_archive").getList(1, 1, { filter: `owner = "${bobId}"` })).totalItems;
    for (let n = await archived(), last = -1; n < COUNT; n = await archived()) {
      if (n !== last) log(`Bob's archive holds ${(last = n)} of ${COUNT}`);
      await bob.page.waitForTimeout(500);
    }
    seedSeconds = (performance.now() - t0) / 1000;
    await admin.settings.update({ rateLimits: limits });
    log(`${COUNT} messages sent by Alice's page, read and archived by Bob's in ${seedSeconds.toFixed(0)} s`);

    for (let run = 0; run < RUNS; run++) {
      const r = await approveOnce(browser, web.url, bob.page, bobName, aliceName);
      runs.push(r);
      log(
        `run ${run + 1}: Approve to signed in ${r.signedInMs.toFixed(0)} ms, to the newest shown ${r.newestMs.toFixed(0)} ms, to the oldest shown ${r.oldestMs.toFixed(0)} ms; load ${os.loadavg()[0].toFixed(1)}`,
      );
    }
  } finally {
    await browser.close();
    await web.stop();
    await pb.stop();
  }
  const p50 = (pick: (r: Run) => number) => `${Math.round(percentile(runs.map(pick), 50))} ms`;
  const all = (pick: (r: Run) => number) => runs.map((r) => Math.round(pick(r))).join(", ");
  const [one, five, fifteen] = os.loadavg().map((x) => x.toFixed(1));
  const section = [
    "## New device approval to full history shown, in the browser",
    "",
    `Written by \`BENCH_PHASES=new-device npm run bench\` (bench/new-device.ts) on ${new Date().toISOString().slice(0, 10)}, ${os.cpus().length} cores (${os.cpus()[0]?.model ?? "unknown CPU"}), load average at the end ${one} ${five} ${fifteen}; ${RUNS} runs, chromium against the production web server and PocketBase with \`npm start\`'s settings, everything on the same machine. A one-to-one of ${COUNT.toLocaleString("en")} messages, sent from Alice's page and read (so archived) by Bob's (${seedSeconds.toFixed(0)} s; rate limits off only then). A new device of Bob's asks to sign in with another device; his page shows the request and the same code; measured from the Approve click. The new device polls every 2 s, so up to 2 s of each row is that wait.`,
    "",
    "| figure | measured (p50) | runs |",
    "| --- | --- | --- |",
    `| Approve to the new device signed in | ${p50((r) => r.signedInMs)} | ${all((r) => r.signedInMs)} |`,
    `| Approve to the DM open with its newest message shown | ${p50((r) => r.newestMs)} | ${all((r) => r.newestMs)} |`,
    `| Approve to its oldest message shown (full history, the list scrolled up) | ${p50((r) => r.oldestMs)} | ${all((r) => r.oldestMs)} |`,
    "",
  ].join("\n");
  writeSection(
    path.join(repoRoot, "docs", "benchmarks-direct.md"),
    "## New device approval to full history shown, in the browser",
    section,
  );
  log("written to docs/benchmarks-direct.md");
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});

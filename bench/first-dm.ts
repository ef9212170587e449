// A DM created one second after the other's sign-up (BENCH_PHASES=first-dm, part of `npm run bench`; run
// with vite-node; ADR 47): the production web server and PocketBase with `npm start`'s settings, and
// Debian's chromium. Bob signs up through the invite link of Alice's team channel (his device sends
// its key packages during sign-up) and lands in it, so he is her colleague and her DM reaches him at
// once (ADR 52); one second after he is in the channel, Alice (signed up before, "New message" open)
// looks him up, starts a one-to-one and sends; Bob opens it from his sidebar. Measured per run: Bob's sign-up (click to
// workspace), Alice's start (click to the conversation open), and start to the first message read on
// Bob's page. Appends its section to docs/benchmarks-direct.md.
import os from "node:os";
import path from "node:path";
import { chromium } from "@playwright/test";
import { repoRoot, startPocketBase } from "../tests/integration/pocketbase";
import { startWeb } from "../tests/e2e/stack";
import { percentile } from "./lib/stats.mjs";
import { signUp, startAndSend, tag, teamLink } from "./lib/people";
import { writeSection } from "./lib/sections";

const RUNS = process.env.BENCH_QUICK === "1" ? 3 : 7;
const READ_TIMEOUT_MS = 20_000;
const log = (line: string) => console.log(`[first-dm] ${line}`);

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
  writeSection(path.join(repoRoot, "docs", "benchmarks-direct.md"), "## A DM created one second after", section);
  log(`written to docs/benchmarks-direct.md`);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});

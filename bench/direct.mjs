// Direct conversations (BENCH_PHASES=mls, part of `npm run bench`): creating one with 2 and with 12
// participants of 2 devices each, through the running product, the way the page does it (ADR 19):
// every device has sent its key packages; the creator starts the conversation, makes the MLS group with
// its signed participant list, claims one package per device of every participant for it, checks each
// credential against the user's identity key, adds them all in one commit with its Welcome, then seals
// and posts the first message; every other device fetches the Welcome, joins from it, fetches that
// message and opens it. Measured: start to the first message readable on every device. All devices run
// in this one Node process one after another, so "every device" is the sum of their work; the slowest
// single device's part is given too (on real devices they work at the same time).
// Then history on a new device (bench/lib/archive.mjs). Writes docs/benchmarks-direct.md.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { percentile } from "./lib/stats.mjs";
import { startStack } from "./lib/stack.mjs";
import { loadClientCrypto } from "./lib/crypto.mjs";
import { createOnce, loadMls, participant } from "./lib/direct.mjs";
import { archiveRun } from "./lib/archive.mjs";
import { approvalRun } from "./lib/device-link.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const RUNS = process.env.BENCH_QUICK === "1" ? 1 : 3;
const tmp = mkdtempSync(path.join(os.tmpdir(), "chatcrypt-direct-bench-"));
const log = (line) => console.log(`[direct] ${line}`);
const p50 = (xs) => `${percentile(xs, 50).toFixed(0)} ms`;

try {
  const mls = await loadMls(root, tmp);
  await mls.ciphersuite();
  const c = await loadClientCrypto(root, tmp);
  const stack = await startStack(root, { webProcesses: 1 });
  const rows = [];
  try {
    const stamp = Date.now().toString(36);
    for (const n of [2, 12]) {
      const samples = { total: [], creator: [], slowest: [] };
      let devices = 0;
      for (let run = 0; run < RUNS; run++) {
        const people = [];
        for (let i = 0; i < n; i++) people.push(await participant(mls, c, stack, `${stamp}${n}r${run}p${i}`));
        const r = await createOnce(mls, c, stack, people, run);
        samples.total.push(r.total);
        samples.creator.push(r.creatorMs);
        samples.slowest.push(r.slowest);
        devices = r.devices;
      }
      rows.push([
        `new direct conversation, ${n} participants × 2 devices (${devices} devices): first message readable on every device`,
        p50(samples.total),
        `creator's part ${p50(samples.creator)}; slowest other device ${p50(samples.slowest)}`,
      ]);
      log(rows.at(-1).join(" | "));
    }
    // History on a new device (ADR 0048; bench/lib/archive.mjs): 1,000 messages of a one-to-one.
    const history = { total: [], fetch: [], opened: [], upload: [] };
    const approval = { total: [], keys: [], history: [] };
    for (let run = 0; run < RUNS; run++) {
      const people = [await participant(mls, c, stack, `${stamp}hr${run}a`), await participant(mls, c, stack, `${stamp}hr${run}b`)];
      const r = await archiveRun(mls, c, people, await createOnce(mls, c, stack, people, run));
      history.total.push(r.total);
      history.fetch.push(r.fetchMs);
      history.opened.push(r.openedMs);
      history.upload.push(r.uploadMs);
      // the same user's new device, approved from the first one (ADR 0059; bench/lib/device-link.mjs)
      const a = await approvalRun(c, stack.webUrl, people[1].client, people[0].client, r.channelId, 1000);
      approval.total.push(a.total);
      approval.keys.push(a.keysMs);
      approval.history.push(a.historyMs);
    }
    rows.push([
      "new device to full history (1,000 DM messages): the archive fetched whole, every entry opened and every signature checked",
      p50(history.total),
      `fetched (2 pages of 500) ${p50(history.fetch)}, fetched and opened ${p50(history.opened)}; the first device's archiving of the 1,000 (sealed, 100 a request, off the path of reading) ${p50(history.upload)}`,
    ]);
    log(rows.at(-1).join(" | "));
    rows.push([
      "new device approval to full history shown (1,000 DM messages): Approve on the signed-in device to the archive opened on the new one",
      p50(approval.total),
      `keys sealed, sent, received at the new device's next poll (every 2 s) and opened ${p50(approval.keys)}; then the history ${p50(approval.history)}`,
    ]);
    log(rows.at(-1).join(" | "));
  } finally {
    await stack.stop();
  }
  const table = ["| figure | measured (p50) | note |", "| --- | --- | --- |", ...rows.map((r) => `| ${r.join(" | ")} |`)].join("\n");
  const report = `# Direct conversations: creation and history on a new device\n\nWritten by \`BENCH_PHASES=mls npm run bench\` (bench/direct.mjs) on ${new Date().toISOString().slice(0, 10)}, Node ${process.version}, ${os.cpus().length} cores (${os.cpus()[0]?.model ?? "unknown CPU"}); ${RUNS} runs per figure, through the production web server and PocketBase on the same machine. Each device has sent its key packages beforehand (as the page does in the background). Every device runs in one Node process one after another, so the first figure is the sum of all devices' work; on real devices the others work at the same time, so the conversation is readable everywhere after about the creator's part plus the slowest device's part. The history figure (bench/lib/archive.mjs, ADR 0048) is a new device of a user whose first device read a one-to-one of 1,000 messages and archived them: its work in Node, without the page's IndexedDB write and drawing; it runs once per device and conversation, alongside the device's join.\n\n${table}\n`;
  writeFileSync(path.join(root, "docs", "benchmarks-direct.md"), report);
  console.log(`\n${table}\n`);
} finally {
  rmSync(tmp, { recursive: true, force: true });
}

// Sealed channels' MLS costs (BENCH_PHASES=mls, part of `npm run bench`), measured in Node against ts-mls
// directly through app/features/sealed/mls.ts; the delivery service adds the same HTTP path as a classic
// message. Prints a table and writes docs/benchmarks-sealed.md.
//   - delivery p50 at 10 and 100 members: one message sealed by a member and opened by another;
//   - commit time with 100 members: adding one device, and removing one (creating the commit, and a
//     member processing it);
//   - the gzip size of the lazily loaded MLS chunk (app/features/sealed/mls.ts and ts-mls, minified).
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { gzipSync } from "node:zlib";
import { percentile } from "./lib/stats.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const QUICK = process.env.BENCH_QUICK === "1";
const MESSAGES = QUICK ? 10 : 40;
const COMMITS = QUICK ? 2 : 5;
const esbuild = path.join(root, "node_modules", ".bin", "esbuild");
const entry = path.join(root, "app", "features", "sealed", "mls.ts");
const tmp = mkdtempSync(path.join(os.tmpdir(), "chatcrypt-mls-bench-"));
const log = (line) => console.log(`[mls] ${line}`);

function bundle(platform, minify) {
  const out = path.join(tmp, `mls-${platform}.mjs`);
  execFileSync(esbuild, [
    entry,
    "--bundle",
    "--format=esm",
    `--platform=${platform}`,
    "--target=es2022",
    `--outfile=${out}`,
    "--log-level=warning",
    ...(minify ? ["--minify"] : []),
  ]);
  return out;
}

const time = async (fn) => {
  const t = performance.now();
  const value = await fn();
  return { ms: performance.now() - t, value };
};

/** A group of n member devices, all joined through one commit (the creator adds the others). */
async function group(mls, n, tag) {
  const devices = await Promise.all(Array.from({ length: n }, (_, i) => mls.newKeyPackage(`${tag}:${i}`)));
  let creator = await mls.newGroup(`bench-${tag}`, devices[0]);
  const added = await mls.commit(
    creator,
    devices.slice(1).map((d) => mls.addProposal(d.publicPackage)),
  );
  creator = added.state;
  const states = [creator];
  for (const device of devices.slice(1)) states.push(await mls.join(added.welcome, device));
  return states;
}

async function delivery(mls, n) {
  const states = await group(mls, n, `d${n}`);
  const samples = [];
  for (let i = 0; i < MESSAGES; i++) {
    const from = i % n;
    const to = (from + 1 + (i % (n - 1))) % n;
    const text = new TextEncoder().encode(`message ${i} `.padEnd(120, "x"));
    const { ms, value } = await time(async () => {
      const sealed = await mls.seal(states[from], text);
      states[from] = sealed.state;
      const opened = await mls.receive(states[to], sealed.message);
      states[to] = opened.state;
      return opened.plaintext;
    });
    if (new TextDecoder().decode(value) !== new TextDecoder().decode(text)) throw new Error("delivery check failed");
    samples.push(ms);
  }
  return samples;
}

async function commits(mls, n) {
  const states = await group(mls, n, `c${n}`);
  const out = { addCreate: [], addProcess: [], removeCreate: [], removeProcess: [] };
  for (let i = 0; i < COMMITS; i++) {
    const device = await mls.newKeyPackage(`c${n}:extra${i}`);
    const add = await time(() => mls.commit(states[0], [mls.addProposal(device.publicPackage)]));
    states[0] = add.value.state;
    const addSeen = await time(() => mls.receive(states[1], add.value.commit));
    states[1] = addSeen.value.state;
    const leaf = n; // the group's leaves 0..n-1 are taken: the new device is leaf n (free again after its removal)
    const remove = await time(() => mls.commit(states[0], [mls.removeProposal(leaf)]));
    states[0] = remove.value.state;
    const removeSeen = await time(() => mls.receive(states[1], remove.value.commit));
    states[1] = removeSeen.value.state;
    out.addCreate.push(add.ms);
    out.addProcess.push(addSeen.ms);
    out.removeCreate.push(remove.ms);
    out.removeProcess.push(removeSeen.ms);
  }
  return out;
}

const fmt = (ms) => `${ms.toFixed(1)} ms`;

try {
  const browserChunk = readFileSync(bundle("browser", true));
  const gzipKb = gzipSync(browserChunk, { level: 9 }).length / 1024;
  log(`MLS chunk: ${(browserChunk.length / 1024).toFixed(1)} KiB minified, ${gzipKb.toFixed(1)} KiB gzip`);
  const mls = await import(pathToFileURL(bundle("node", false)).href);
  await mls.ciphersuite();

  const rows = [];
  for (const n of [10, 100]) {
    const samples = await delivery(mls, n);
    rows.push([`sealed delivery p50, ${n} members (seal + open)`, fmt(percentile(samples, 50)), `p95 ${fmt(percentile(samples, 95))}`]);
    log(rows.at(-1).join(" | "));
  }
  const c = await commits(mls, 100);
  rows.push([
    "commit: add 1 device, 100 members (create)",
    fmt(percentile(c.addCreate, 50)),
    `member processes it: ${fmt(percentile(c.addProcess, 50))}`,
  ]);
  rows.push([
    "commit: remove 1 device, 100 members (create)",
    fmt(percentile(c.removeCreate, 50)),
    `member processes it: ${fmt(percentile(c.removeProcess, 50))}`,
  ]);
  rows.push(["lazily loaded MLS chunk (gzip)", `${gzipKb.toFixed(1)} KiB`, `${(browserChunk.length / 1024).toFixed(1)} KiB minified`]);
  for (const r of rows.slice(2)) log(r.join(" | "));

  const table = ["| figure | measured (p50) | note |", "| --- | --- | --- |", ...rows.map((r) => `| ${r.join(" | ")} |`)].join("\n");
  const report = `# Sealed channels: MLS costs\n\nWritten by \`BENCH_PHASES=mls npm run bench\` (bench/mls.mjs) on ${new Date().toISOString().slice(0, 10)}, Node ${process.version}, ${os.cpus().length} cores (${os.cpus()[0]?.model ?? "unknown CPU"}). Measured in one Node process against ts-mls ${JSON.parse(readFileSync(path.join(root, "node_modules", "ts-mls", "package.json"), "utf8")).version} (ciphersuite 1); ${MESSAGES} messages and ${COMMITS} add/remove pairs per figure. The delivery service adds the same HTTP and live-event path as a classic message (docs/benchmarks.md).\n\n${table}\n`;
  writeFileSync(path.join(root, "docs", "benchmarks-sealed.md"), report);
  console.log(`\n${table}\n`);
} finally {
  rmSync(tmp, { recursive: true, force: true });
}

// Calls (BENCH_PHASES=calls, part of `npm run bench`; run with vite-node): the real LiveKit server
// (tests/integration/livekit.ts, configured as `npm start` does) and Debian's chromium with its fake
// camera and microphone, in pages of livekit-client with end-to-end encryption on (a shared key, as
// the app's call key), everything on the same two cores. Measured:
// - join time: a page joins a room where another already publishes, from the start of its join
//   (connect, E2EE, camera and microphone) to the first remote video frame it decodes (p50 of 5);
// - capacity: 3-person audio+video calls added one at a time (every page publishes its camera at
//   320x180, 15 fps, and its microphone, and receives the two others) until a call's pages decode
//   fewer than 90% of the video frames they did with one call, or MAX_CALLS; at each step the
//   LiveKit server's CPU (per call), the browser's, and the media it forwards.
// Writes docs/benchmarks-calls.md.
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { chromium, type Page } from "@playwright/test";
import { AccessToken } from "livekit-server-sdk";
import { startLiveKit } from "../tests/integration/livekit";
import { serveLiveKitPage } from "../tests/livekit-page";
import { repoRoot } from "../tests/integration/pocketbase";
import { percentile } from "./lib/stats.mjs";

const QUICK = process.env.BENCH_QUICK === "1";
const JOINS = QUICK ? 2 : 5;
const MAX_CALLS = QUICK ? 2 : 12;
const SETTLE_MS = 5_000;
const WINDOW_MS = QUICK ? 5_000 : 10_000;
const log = (line: string) => console.log(`[calls] ${line}`);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const script = `
  import { ExternalE2EEKeyProvider, Room, RoomEvent, VideoPresets } from "./livekit-client.esm.mjs";
  window.join = async (url, token, key, publish) => {
    const started = performance.now();
    const keyProvider = new ExternalE2EEKeyProvider();
    await keyProvider.setKey(new Uint8Array(key).buffer);
    const worker = new Worker("./livekit-client.e2ee.worker.mjs", { type: "module" });
    const room = new Room({
      adaptiveStream: false,
      dynacast: false,
      e2ee: { keyProvider, worker },
      videoCaptureDefaults: { resolution: { width: 320, height: 180, frameRate: 15 } },
      publishDefaults: { simulcast: false, videoEncoding: { maxBitrate: 200_000, maxFramerate: 15 } },
    });
    await room.setE2EEEnabled(true);
    await room.connect(url, token);
    if (publish) await room.localParticipant.enableCameraAndMicrophone();
    window.room = room;
    window.started = started;
  };
  window.received = async () => {
    let frames = 0, bytes = 0, tracks = 0;
    for (const p of window.room?.remoteParticipants.values() ?? [])
      for (const pub of p.trackPublications.values()) {
        if (!pub.track) continue;
        if (pub.track.kind === "video") tracks++;
        (await pub.track.getRTCStatsReport())?.forEach((s) => {
          if (s.type !== "inbound-rtp") return;
          bytes += s.bytesReceived ?? 0;
          frames += s.framesDecoded ?? 0;
        });
      }
    return { frames, bytes, tracks, at: performance.now() };
  };
  // Resolves with the ms from the start of the join to the first decoded remote video frame.
  window.firstFrame = () => new Promise((resolve) => {
    const check = async () => {
      const r = await window.received();
      if (r.frames > 0) resolve(r.at - window.started);
      else setTimeout(check, 10);
    };
    check();
  });
  window.leave = () => window.room?.disconnect();
`;

/** CPU seconds (user + system) of a process and its children so far, from /proc. */
function cpuSeconds(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
  const ticks = Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14]);
  return ticks / 100;
}
/** CPU seconds so far of every process whose command line names `needle`, by process id. */
function cpuOf(needle: string): Map<string, number> {
  const out = new Map<string, number>();
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/cmdline`, "utf8").includes(needle)) out.set(entry, cpuSeconds(Number(entry)));
    } catch {
      // gone meanwhile
    }
  }
  return out;
}
/** CPU seconds spent between two readings by the processes in both. */
const spent = (before: Map<string, number>, after: Map<string, number>) =>
  [...after].reduce((sum, [pid, secs]) => sum + (before.has(pid) ? secs - before.get(pid)! : 0), 0);

const loadBefore = os.loadavg()[0];
const livekit = await startLiveKit();
const site = await serveLiveKitPage(script);
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
  args: ["--use-fake-device-for-media-stream", "--use-fake-ui-for-media-stream", "--autoplay-policy=no-user-gesture-required"],
});
const key = [...crypto.getRandomValues(new Uint8Array(32))];

async function token(room: string, identity: string) {
  const grant = new AccessToken(livekit.apiKey, livekit.apiSecret, { identity, ttl: 600 });
  grant.addGrant({ room, roomJoin: true, canPublish: true, canSubscribe: true });
  return grant.toJwt();
}

async function page(room: string, identity: string, publish: boolean): Promise<Page> {
  const context = await browser.newContext();
  const p = await context.newPage();
  await p.goto(site.url);
  await p.waitForFunction(() => typeof (window as unknown as { join?: unknown }).join === "function");
  await p.evaluate(([u, t, k, pub]) => (window as never as { join: (...a: unknown[]) => Promise<void> }).join(u, t, k, pub), [
    livekit.url,
    await token(room, identity),
    key,
    publish,
  ] as const);
  return p;
}
type Received = { frames: number; bytes: number; tracks: number; at: number };
const received = (p: Page) => p.evaluate(() => (window as never as { received(): Promise<Received> }).received());

// ---- join time ----
const joins: number[] = [];
for (let i = 0; i < JOINS; i++) {
  const host = await page(`join-${i}`, "host", true);
  const guest = await page(`join-${i}`, "guest", true);
  joins.push(await guest.evaluate(() => (window as never as { firstFrame(): Promise<number> }).firstFrame()));
  log(`join ${i + 1}: ${joins[i].toFixed(0)} ms`);
  for (const p of [host, guest]) await p.context().close();
}

// ---- capacity ----
interface Step {
  calls: number;
  fps: number;
  worst: number;
  sfuCpu: number;
  browserCpu: number;
  kbps: number;
}
const steps: Step[] = [];
const pages: Page[][] = [];
let reference = 0;
// why the ramp ended before a drop in frames: a call's pages could not join (the fake camera or
// microphone could not start, or LiveKit refused), which ends the ramp as a drop does
let refused = "";
for (let n = 1; n <= MAX_CALLS; n++) {
  const joined = await Promise.allSettled(["a", "b", "c"].map((who) => page(`call-${n}`, `${who}-${n}`, true)));
  const failed = joined.find((r): r is PromiseRejectedResult => r.status === "rejected");
  if (failed) {
    for (const r of joined) if (r.status === "fulfilled") await r.value.context().close();
    refused = `call ${n}'s pages could not join (${String(failed.reason?.message ?? failed.reason).split("\n")[0]})`;
    log(refused);
    break;
  }
  const call = joined.map((r) => (r as PromiseFulfilledResult<Page>).value);
  pages.push(call);
  await sleep(SETTLE_MS);
  const all = pages.flat();
  const before = await Promise.all(all.map(received));
  const [sfu0, chrome0, t0] = [cpuSeconds(livekit.pid), cpuOf("chromium"), Date.now()];
  await sleep(WINDOW_MS);
  const after = await Promise.all(all.map(received));
  const seconds = (Date.now() - t0) / 1000;
  const sfuCpu = (cpuSeconds(livekit.pid) - sfu0) / seconds;
  const browserCpu = spent(chrome0, cpuOf("chromium")) / seconds;
  // decoded video frames per second per remote video track, for every page
  const rates = after.map((a, i) => (a.frames - before[i].frames) / ((a.at - before[i].at) / 1000) / Math.max(1, a.tracks));
  const fps = rates.reduce((s, r) => s + r, 0) / rates.length;
  const worst = Math.min(...rates);
  const kbps = after.reduce((s, a, i) => s + (a.bytes - before[i].bytes), 0) / seconds / n / 125;
  if (n === 1) reference = fps;
  steps.push({ calls: n, fps, worst, sfuCpu, browserCpu, kbps });
  log(
    `${n} calls: ${fps.toFixed(1)} fps per track (worst ${worst.toFixed(1)}), LiveKit ${(sfuCpu * 100).toFixed(1)}% of a core, chromium ${(browserCpu * 100).toFixed(0)}%`,
  );
  if (worst < 0.9 * reference) break;
}

await browser.close();
site.server.close();
await livekit.stop();

// (no step at all when the first call could not join: the report then says so with zero calls)
const last = steps.at(-1) ?? { calls: 0, fps: 0, worst: 0, sfuCpu: 0, browserCpu: 0, kbps: 0 };
const carried = last.worst < 0.9 * reference ? last.calls - 1 : last.calls;
// the SFU's cost per call where every frame still arrived (a step with drops forwards less)
const perCall = steps.filter((s) => s.worst >= 0.9 * reference).map((s) => s.sfuCpu / s.calls);
const sfuPerCall = percentile(perCall, 50);
const cores = os.cpus().length;
const report = `# Call figures

Written by \`bench/calls.ts\` (\`npm run bench\`, BENCH_PHASES=calls) on ${new Date().toISOString().slice(0, 10)}: the real LiveKit
server (v1.13.5, configured as \`npm start\` does) and Debian's chromium with its fake camera and
microphone, in pages of livekit-client with end-to-end encryption on, on loopback, all on the same
${cores} cores (the browser's work is counted against the SFU's). Load average when it started: ${loadBefore.toFixed(2)}
(other work on the machine moves these figures).

- **Join time**, from the start of a page's join (connect, E2EE, camera and microphone) to the first
  remote video frame it decodes, in a room where another page already publishes (${JOINS} joins):
  p50 **${percentile(joins, 50).toFixed(0)} ms**, max ${Math.max(...joins).toFixed(0)} ms. In the app, from the click on "Start call" to
  both pages decoding each other's video (our token and the other person's click on the ring included),
  \`tests/e2e/calls.spec.ts\` logs it: 3.5 s to 6.3 s over four runs on this machine (ADR 32).
- **3-person audio+video calls at once** (each page publishes its camera at 320x180, 15 fps, and its
  microphone, and receives the two others), added one at a time until a call's pages decode fewer
  than 90% of the frames they did with one call:

| calls | pages | video fps per track (mean) | worst page | LiveKit CPU (share of one core) | per call | chromium CPU (cores) | received kbit/s per call |
|---|---|---|---|---|---|---|---|
${steps
  .map(
    (s) =>
      `| ${s.calls} | ${s.calls * 3} | ${s.fps.toFixed(1)} | ${s.worst.toFixed(1)} | ${(s.sfuCpu * 100).toFixed(1)}% | ${((s.sfuCpu / s.calls) * 100).toFixed(1)}% | ${s.browserCpu.toFixed(2)} | ${s.kbps.toFixed(0)} |`,
  )
  .join("\n")}

Carried before frames dropped: **${carried} calls** (${carried * 3} pages). ${
  last.worst < 0.9 * reference
    ? `The drop came with chromium using ${last.browserCpu.toFixed(2)} of the ${cores} cores for its ${last.calls * 3} pages (encoding, E2EE and decoding): the clients ran out of CPU, not the SFU.`
    : refused
      ? `The ramp stopped without a drop in frames: ${refused}, with chromium using ${last.browserCpu.toFixed(2)} of the ${cores} cores for ${last.calls * 3} pages.`
      : `The ramp stopped at ${MAX_CALLS} calls without a drop.`
}
LiveKit's own cost: **${(sfuPerCall * 100).toFixed(1)}% of a core per call** (median over the steps without drops), so forwarding alone
would take about **${Math.floor(cores / sfuPerCall)} such calls** on ${cores} cores (an estimate from the measured CPU per
call, not a measured ramp: the browsers on the same machine stop first).
`;
console.log(report);
if (!QUICK) writeFileSync(path.join(repoRoot, "docs", "benchmarks-calls.md"), report);
process.exit(0);

// Direct conversations (BENCH_PHASES=mls, part of `npm run bench`): creating one with 2 and with 12
// participants of 2 devices each, through the running product, the way the page does it (ADR 19):
// every device has sent its key packages; the creator starts the conversation, makes the MLS group with
// its signed participant list, claims one package per device of every participant for it, checks each
// credential against the user's identity key, adds them all in one commit with its Welcome, then seals
// and posts the first message; every other device fetches the Welcome, joins from it, fetches that
// message and opens it. Measured: start to the first message readable on every device. All devices run
// in this one Node process one after another, so "every device" is the sum of their work; the slowest
// single device's part is given too (on real devices they work at the same time).
// Writes docs/benchmarks-direct.md.
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { percentile } from "./lib/stats.mjs";
import { startStack } from "./lib/stack.mjs";
import { loadClientCrypto } from "./lib/crypto.mjs";
import { signUpFull } from "./lib/chat.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const RUNS = process.env.BENCH_QUICK === "1" ? 1 : 3;
const tmp = mkdtempSync(path.join(os.tmpdir(), "chatcrypt-direct-bench-"));
const log = (line) => console.log(`[direct] ${line}`);
const b64 = (bytes) => Buffer.from(bytes).toString("base64url");
const bytes = (text) => new Uint8Array(Buffer.from(text, "base64url"));

/** The page's MLS building blocks, bundled as the browser gets them. */
async function loadMls() {
  const entry = path.join(tmp, "direct-entry.ts");
  const out = path.join(tmp, "direct.mjs");
  const from = (file) => JSON.stringify(path.join(root, "app", "features", "sealed", file));
  writeFileSync(
    entry,
    `export * from ${from("mls.ts")};\nexport * from ${from("roster.ts")};\nexport { deviceCredential, credentialHolds } from ${from("identity.ts")};\n`,
  );
  execFileSync(path.join(root, "node_modules", ".bin", "esbuild"), [
    entry,
    "--bundle",
    "--format=esm",
    "--platform=node",
    "--target=node20",
    `--tsconfig=${path.join(root, "tsconfig.json")}`,
    `--outfile=${out}`,
    "--log-level=warning",
  ]);
  return import(pathToFileURL(out).href);
}

/** A signed-up user with two devices, each of which has sent a pool of key packages. */
async function participant(mls, c, stack, tag) {
  const client = await signUpFull(c, stack.webUrl, { username: `dm${tag}`, email: `dm${tag}@example.test`, password: `pw-${tag}-long` });
  const devices = [];
  for (const name of ["one", "two"]) {
    const device = `${tag}-${name}`.replace(/[^A-Za-z0-9_-]/g, "").padEnd(8, "x");
    const make = () =>
      mls.newBoundKeyPackage((key) => mls.deviceCredential(client.keys.rsaPrivateKey, { userId: client.user.id, device }, key));
    const pool = await Promise.all([make(), make()]);
    await client.api("/api/key-packages", {
      device,
      oneTime: [b64(mls.encodeKeyPackage(pool[0]))],
      lastResort: b64(mls.encodeKeyPackage(pool[1])),
    });
    devices.push({ device, pool });
  }
  return { client, devices };
}

async function createOnce(mls, c, stack, people, run) {
  const [creator, ...others] = people;
  const alice = creator.client;
  const ids = others.map((p) => p.client.user.id);
  const t0 = performance.now();
  const { id } = await alice.api("/api/direct", {
    id: c.randomUuid(),
    participants: ids,
    ...(ids.length > 1 ? { name: `bench ${run}` } : {}),
  });
  const roster = await mls.signRoster(alice.keys.rsaPrivateKey, id, 1, [alice.user.id, ...ids], alice.user.id);
  let state = await mls.newGroup(id, creator.devices[0].pool[0], [mls.rosterExtension(roster)]);
  await alice.api(`/api/sealed/${id}/group`, { groupInfo: b64(await mls.groupInfo(state)) });
  const packages = [];
  for (const person of people) {
    const { key_packages } = await alice.api("/api/key-packages/claim", { userId: person.client.user.id, channelId: id });
    for (const claimed of key_packages) {
      if (person === creator && claimed.device === creator.devices[0].device) continue;
      const keyPackage = mls.decodeKeyPackage(bytes(claimed.data));
      const leaf = keyPackage.leafNode;
      if (!(await mls.credentialHolds(leaf.credential.identity, leaf.signaturePublicKey, person.client.keys.rsaPublicKey)))
        throw new Error("a claimed key package is not bound to its user");
      packages.push(keyPackage);
    }
  }
  const made = await mls.commit(state, packages.map(mls.addProposal));
  state = made.state;
  await alice.api(`/api/sealed/${id}/commits`, {
    epoch: 0,
    commit: b64(made.commit),
    groupInfo: b64(await mls.groupInfo(state)),
    welcome: b64(made.welcome),
  });
  const text = `first message ${run}`;
  const sealed = await mls.seal(state, new TextEncoder().encode(text));
  await alice.api(`/api/channels/${id}/messages`, {
    encryptedContent: b64(sealed.message),
    senderPublicKey: alice.user.ecdhPublicKey,
    epoch: 1,
  });
  const creatorMs = performance.now() - t0;

  // Every other device: its Welcome, the message, opened. (The creator's second device included.)
  const readers = [
    ...creator.devices.slice(1).map((d) => ({ client: alice, device: d })),
    ...others.flatMap((p) => p.devices.map((d) => ({ client: p.client, device: d }))),
  ];
  let slowest = 0;
  for (const reader of readers) {
    const t = performance.now();
    const { welcomes } = await reader.client.api(`/api/sealed/${id}/welcomes`);
    let joined = null;
    for (const w of welcomes) for (const kp of reader.device.pool) joined ??= await mls.join(bytes(w.data), kp).catch(() => null);
    if (!joined) throw new Error("a device found no Welcome for its key packages");
    const { messages } = await reader.client.api(`/api/channels/${id}/messages?epoch=1&limit=50&page=1`);
    const opened = await mls.receive(joined, bytes(messages[0].encryptedContent));
    if (new TextDecoder().decode(opened.plaintext) !== text) throw new Error("the first message did not open");
    slowest = Math.max(slowest, performance.now() - t);
  }
  return { total: performance.now() - t0, creatorMs, slowest, devices: readers.length + 1 };
}

try {
  const mls = await loadMls();
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
      const p50 = (xs) => `${percentile(xs, 50).toFixed(0)} ms`;
      rows.push([
        `new direct conversation, ${n} participants × 2 devices (${devices} devices): first message readable on every device`,
        p50(samples.total),
        `creator's part ${p50(samples.creator)}; slowest other device ${p50(samples.slowest)}`,
      ]);
      log(rows.at(-1).join(" | "));
    }
  } finally {
    await stack.stop();
  }
  const table = ["| figure | measured (p50) | note |", "| --- | --- | --- |", ...rows.map((r) => `| ${r.join(" | ")} |`)].join("\n");
  const report = `# Direct conversations: creation\n\nWritten by \`BENCH_PHASES=mls npm run bench\` (bench/direct.mjs) on ${new Date().toISOString().slice(0, 10)}, Node ${process.version}, ${os.cpus().length} cores (${os.cpus()[0]?.model ?? "unknown CPU"}); ${RUNS} runs per figure, through the production web server and PocketBase on the same machine. Each device has sent its key packages beforehand (as the page does in the background). Every device runs in one Node process one after another, so the first figure is the sum of all devices' work; on real devices the others work at the same time, so the conversation is readable everywhere after about the creator's part plus the slowest device's part.\n\n${table}\n`;
  writeFileSync(path.join(root, "docs", "benchmarks-direct.md"), report);
  console.log(`\n${table}\n`);
} finally {
  rmSync(tmp, { recursive: true, force: true });
}

// Sealed channels' MLS costs (BENCH_PHASES=mls, part of `npm run bench`), measured in Node against ts-mls
// through app/conversation/mls/mls.ts. Prints a table and writes docs/benchmarks-sealed.md.
//   - delivery p50 at 10 and 100 members through the whole path: a member seals a message for the
//     group's epoch, POSTs it to the web server (PocketBase checks the epoch and stores it), another
//     member's live stream (/api/events) receives it and opens it; and the MLS part alone (seal + open);
//   - commit time with 100 members: adding one device, and removing one (creating the commit, and a
//     member processing it);
//   - the gzip size of the lazily loaded sealed-channel chunk of the production build (the runtime,
//     ts-mls, and the crypto chunks it loads for ciphersuite 1), and of the MLS module alone.
import { execFileSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { gzipSync } from "node:zlib";
import { percentile } from "./lib/stats.mjs";
import { startStack } from "./lib/stack.mjs";
import { loadClientCrypto } from "./lib/crypto.mjs";
import { signUpFull } from "./lib/chat.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const QUICK = process.env.BENCH_QUICK === "1";
const MESSAGES = QUICK ? 10 : 40;
const COMMITS = QUICK ? 2 : 5;
const esbuild = path.join(root, "node_modules", ".bin", "esbuild");
const entry = path.join(root, "app", "conversation", "mls", "mls.ts");
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

/**
 * Through the running product: two signed-up users in a sealed channel whose MLS group has `n` member
 * devices (the others are devices this process holds). Alice seals and posts; Bob's live stream gets it.
 */
async function serviceDelivery(mls, c, stack, n) {
  const b64 = (bytes) => Buffer.from(bytes).toString("base64url");
  const suffix = `${n}${Date.now().toString(36)}`;
  const [alice, bob] = await Promise.all(
    ["a", "b"].map((who) =>
      signUpFull(c, stack.webUrl, {
        username: `mls${who}${suffix}`,
        email: `mls${who}${suffix}@example.test`,
        password: `pw-${suffix}-long`,
      }),
    ),
  );
  const id = c.randomUuid();
  const secrets = await c.deriveChannelSecrets(`channel-${suffix}`, id, c.PBKDF2_ITERATIONS);
  await alice.api("/api/channels", {
    id,
    name: `sealed ${n}`,
    verifier: secrets.verifier,
    ecdhPublicKey: alice.user.ecdhPublicKey,
    kdfIterations: c.PBKDF2_ITERATIONS,
    sealed: true,
  });
  await bob.api("/api/channels/join", { channelId: id, verifier: secrets.verifier, ecdhPublicKey: bob.user.ecdhPublicKey });
  const devices = await Promise.all(Array.from({ length: n }, (_, i) => mls.newKeyPackage(`svc${suffix}:${i}`)));
  let creator = await mls.newGroup(id, devices[0]);
  await alice.api(`/api/sealed/${id}/group`, { groupInfo: b64(await mls.groupInfo(creator)) });
  const added = await mls.commit(
    creator,
    devices.slice(1).map((d) => mls.addProposal(d.publicPackage)),
  );
  await alice.api(`/api/sealed/${id}/commits`, { epoch: 0, commit: b64(added.commit), groupInfo: b64(await mls.groupInfo(added.state)) });
  creator = added.state;
  let reader = await mls.join(added.welcome, devices[1]);
  const epoch = Number(mls.epochOf(creator));

  const waiting = new Map();
  const stream = await bob.openEvents(id, (event, at) => {
    if (event.type !== "message" || !event.message) return;
    waiting.get(event.message.encryptedContent)?.(at);
  });
  const samples = [];
  try {
    for (let i = 0; i < MESSAGES; i++) {
      const text = new TextEncoder().encode(`message ${i} `.padEnd(120, "x"));
      const start = performance.now();
      const sealed = await mls.seal(creator, text);
      creator = sealed.state;
      const content = b64(sealed.message);
      const arrived = new Promise((resolve) => waiting.set(content, resolve));
      await alice.api(`/api/channels/${id}/messages`, { encryptedContent: content, senderPublicKey: alice.user.ecdhPublicKey, epoch });
      await arrived;
      waiting.delete(content);
      const opened = await mls.receive(reader, Buffer.from(content, "base64url"));
      reader = opened.state;
      if (new TextDecoder().decode(opened.plaintext) !== new TextDecoder().decode(text)) throw new Error("delivery check failed");
      samples.push(performance.now() - start);
    }
  } finally {
    stream.close();
  }
  return samples;
}

/** The sealed-channel chunk of the production build and the lazy chunks it imports (all of them: an upper bound). */
function builtChunk() {
  const assets = path.join(root, "build", "client", "assets");
  const files = readdirSync(assets);
  const runtime = files.find((f) => /^runtime\.client-.*\.js$/.test(f));
  if (!runtime) return null;
  const first = new Set();
  const seen = new Set([runtime]);
  const queue = [runtime];
  while (queue.length) {
    const text = readFileSync(path.join(assets, queue.pop()), "utf8");
    for (const [, name, dynamic] of text.matchAll(/(?:from\s*"\.\/([^"]+\.js)"|import\("\.\/([^"]+\.js)"\))/g)) {
      const file = name ?? dynamic;
      // Statically imported chunks the page already loaded (the route, the shared client code) are not part of it.
      if (name && /^(_index|components|api\.client|entry\.client|root)-/.test(name)) {
        first.add(name);
        continue;
      }
      if (!seen.has(file)) {
        seen.add(file);
        queue.push(file);
      }
    }
  }
  const gz = (file) => gzipSync(readFileSync(path.join(assets, file)), { level: 9 }).length / 1024;
  return { runtime: gz(runtime), all: [...seen].reduce((sum, f) => sum + gz(f), 0), files: seen.size };
}

const fmt = (ms) => `${ms.toFixed(1)} ms`;

try {
  const browserChunk = readFileSync(bundle("browser", true));
  const gzipKb = gzipSync(browserChunk, { level: 9 }).length / 1024;
  log(`MLS chunk: ${(browserChunk.length / 1024).toFixed(1)} KiB minified, ${gzipKb.toFixed(1)} KiB gzip`);
  const mls = await import(pathToFileURL(bundle("node", false)).href);
  await mls.ciphersuite();

  const rows = [];
  const c = await loadClientCrypto(root, tmp);
  const stack = await startStack(root, { webProcesses: 1 });
  try {
    for (const n of [10, 100]) {
      const samples = await serviceDelivery(mls, c, stack, n);
      rows.push([
        `sealed delivery p50, ${n} members (seal, POST, live stream, open)`,
        fmt(percentile(samples, 50)),
        `p95 ${fmt(percentile(samples, 95))}`,
      ]);
      log(rows.at(-1).join(" | "));
    }
  } finally {
    await stack.stop();
  }
  for (const n of [10, 100]) {
    const samples = await delivery(mls, n);
    rows.push([
      `MLS part of delivery p50, ${n} members (seal + open)`,
      fmt(percentile(samples, 50)),
      `p95 ${fmt(percentile(samples, 95))}`,
    ]);
    log(rows.at(-1).join(" | "));
  }
  const timed = await commits(mls, 100);
  rows.push([
    "commit: add 1 device, 100 members (create)",
    fmt(percentile(timed.addCreate, 50)),
    `member processes it: ${fmt(percentile(timed.addProcess, 50))}`,
  ]);
  rows.push([
    "commit: remove 1 device, 100 members (create)",
    fmt(percentile(timed.removeCreate, 50)),
    `member processes it: ${fmt(percentile(timed.removeProcess, 50))}`,
  ]);
  const built = builtChunk();
  if (built) {
    rows.push([
      "lazily loaded sealed-channel chunk of the build (gzip)",
      `${built.runtime.toFixed(1)} KiB`,
      `with every lazy chunk it can load: ${built.all.toFixed(1)} KiB in ${built.files} files`,
    ]);
  }
  rows.push([
    "MLS module alone, minified by esbuild (gzip)",
    `${gzipKb.toFixed(1)} KiB`,
    `${(browserChunk.length / 1024).toFixed(1)} KiB minified`,
  ]);
  for (const r of rows.slice(4)) log(r.join(" | "));

  const table = ["| figure | measured (p50) | note |", "| --- | --- | --- |", ...rows.map((r) => `| ${r.join(" | ")} |`)].join("\n");
  const report = `# Sealed channels: MLS costs\n\nWritten by \`BENCH_PHASES=mls npm run bench\` (bench/mls.mjs) on ${new Date().toISOString().slice(0, 10)}, Node ${process.version}, ${os.cpus().length} cores (${os.cpus()[0]?.model ?? "unknown CPU"}). Measured in one Node process against ts-mls ${JSON.parse(readFileSync(path.join(root, "node_modules", "ts-mls", "package.json"), "utf8")).version} (ciphersuite 1); ${MESSAGES} messages and ${COMMITS} add/remove pairs per figure. Delivery goes through the production web server and PocketBase on the same machine (one web process); the group has the given number of member devices, two of them signed-up users (the live-event fan-out to many streams is the classic bench's, docs/benchmarks.md). The build's chunk is measured from \`build/client/assets\` (run \`npm run build\` first).\n\n${table}\n`;
  writeFileSync(path.join(root, "docs", "benchmarks-sealed.md"), report);
  console.log(`\n${table}\n`);
} finally {
  rmSync(tmp, { recursive: true, force: true });
}

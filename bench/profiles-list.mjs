// Listing profiles with 10,000 accounts in the database (ADR 0077), for a member of 50 channels of
// 100 members each (500 channels, 50,000 memberships in all): what PocketBase answers a signed-in
// user's list of profiles, and the names of 100 channel-mates as the web server asks for them.
// `node bench/profiles-list.mjs`; BENCH_ROOT=<another checkout> measures that checkout's PocketBase
// (before: the list rule "any signed-in user", the names read through the collection's list), and
// BENCH_RULE=<rule> measures that list rule set by the superuser instead (on a checkout without the
// Go helper: the rule's own cost). Prints the median of 15 runs of each.
import { execFile } from "node:child_process";
import { copyFile, mkdir, mkdtemp, readdir, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { createSuperuser, pocketbaseBinary, spawnPocketBase, stopProcess, waitHealthy } from "../scripts/lib/pocketbase.mjs";

const root = process.env.BENCH_ROOT || path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const [ACCOUNTS, CHANNELS, MINE, PER_CHANNEL, RUNS, TIMEOUT_MS] = [10_000, 500, 50, 100, 15, 20_000];
const id = (kind, i) => kind + String(i).padStart(14, "0");

// Accounts, profiles, channels and memberships written by a migration before PocketBase starts
// (sign-ups would cost a bcrypt hash each). Account u0 is the viewer, in channels c0..c49.
const SEED = `
migrate((app) => {
  const id = (kind, i) => kind + String(i).padStart(14, "0");
  const now = new Date().toISOString().replace("T", " ");
  const user = app.db().newQuery("INSERT INTO users (id, email, password, tokenKey, created, updated) VALUES ({:id}, {:email}, 'x', {:key}, {:now}, {:now})");
  const profile = app.db().newQuery("INSERT INTO profiles (id, username, ecdh_public_key, rsa_public_key, created, updated) VALUES ({:id}, {:name}, 'e', 'r', {:now}, {:now})");
  for (let i = 0; i < ${ACCOUNTS}; i++) {
    user.bind({ id: id("u", i), email: id("u", i) + "@bench.test", key: $security.randomString(50), now }).execute();
    profile.bind({ id: id("u", i), name: "person" + i, now }).execute();
  }
  const channel = app.db().newQuery("INSERT INTO channels (id, name, created_by, created, updated) VALUES ({:id}, {:name}, {:by}, {:now}, {:now})");
  const member = app.db().newQuery("INSERT INTO channel_members (id, channel, user, created) VALUES ({:id}, {:channel}, {:user}, {:now})");
  let n = 0;
  for (let c = 0; c < ${CHANNELS}; c++) {
    channel.bind({ id: id("c", c), name: "channel " + c, by: id("u", 1), now }).execute();
    const members = new Set(c < ${MINE} ? [0] : []);
    for (let k = 1; members.size < ${PER_CHANNEL}; k++) members.add((c * 7919 + k * 104729) % ${ACCOUNTS});
    for (const u of members) member.bind({ id: id("m", n++), channel: id("c", c), user: id("u", u), now }).execute();
  }
}, () => {});
`;

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function timed(url, headers) {
  const start = performance.now();
  const res = await fetch(url, { headers, signal: AbortSignal.timeout(TIMEOUT_MS) });
  const body = await res.json();
  return { ms: performance.now() - start, status: res.status, body };
}

async function measure(label, url, headers, count) {
  const samples = [];
  let last;
  for (let i = 0; i < RUNS; i++) {
    try {
      last = await timed(url, headers);
    } catch {
      console.log(`${label}: no answer within ${TIMEOUT_MS / 1000} s`);
      return;
    }
    samples.push(last.ms);
  }
  console.log(`${label}: ${last.status}, ${count(last.body)}, median ${median(samples).toFixed(1)} ms (${RUNS} runs)`);
}

const tmp = await mkdtemp(path.join(os.tmpdir(), "chatcrypt-profiles-bench-"));
let proc;
try {
  const dataDir = path.join(tmp, "data");
  const migrations = path.join(tmp, "migrations");
  await mkdir(migrations, { recursive: true });
  for (const file of await readdir(path.join(root, "pb_migrations")))
    if (file.endsWith(".js")) await copyFile(path.join(root, "pb_migrations", file), path.join(migrations, file));
  await writeFile(path.join(migrations, "9999999999_bench_profiles.js"), SEED);
  const seeded = performance.now();
  const { stdout, stderr } = await promisify(execFile)(
    pocketbaseBinary(root),
    ["migrate", "up", "--dir", dataDir, "--migrationsDir", migrations],
    { cwd: root },
  );
  if (/Error/.test(stdout + stderr)) throw new Error(stdout + stderr);
  console.log(`seeded ${ACCOUNTS} accounts, ${CHANNELS} channels in ${((performance.now() - seeded) / 1000).toFixed(1)} s (${root})`);
  const superuser = await createSuperuser(root, dataDir, "bench");
  const port = 18000 + Math.floor(Math.random() * 2000);
  const url = `http://127.0.0.1:${port}`;
  proc = spawnPocketBase({ root, address: `127.0.0.1:${port}`, dataDir });
  await waitHealthy(url, proc);
  const su = await (
    await fetch(`${url}/api/collections/_superusers/auth-with-password`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ identity: superuser.email, password: superuser.password }),
    })
  ).json();
  const viewer = await (
    await fetch(`${url}/api/collections/users/impersonate/${id("u", 0)}`, {
      method: "POST",
      headers: { Authorization: su.token, "Content-Type": "application/json" },
      body: JSON.stringify({ duration: 3600 }),
    })
  ).json();
  if (process.env.BENCH_RULE) {
    const res = await fetch(`${url}/api/collections/profiles`, {
      method: "PATCH",
      headers: { Authorization: su.token, "Content-Type": "application/json" },
      body: JSON.stringify({ listRule: process.env.BENCH_RULE }),
    });
    console.log(`list rule set to ${process.env.BENCH_RULE}: ${res.status}`);
  }
  if (!viewer.token) throw new Error(`impersonation: ${JSON.stringify(viewer).slice(0, 300)} ${JSON.stringify(su).slice(0, 200)}`);
  const auth = { Authorization: viewer.token };
  const total = (body) => `${body.totalItems ?? body.items?.length} profiles`;
  await measure("list of profiles, page of 500", `${url}/api/collections/profiles/records?perPage=500`, auth, total);
  // 100 of the viewer's channel-mates (channel c0's members)
  const mates = [];
  for (let k = 1; mates.length < 100; k++) mates.push(id("u", (k * 104729) % ACCOUNTS));
  const known = await fetch(`${url}/api/chat/profiles?ids=${mates[0]}`, { headers: auth });
  if (known.status === 404) {
    const filter = encodeURIComponent(mates.map((m) => `id = "${m}"`).join(" || "));
    await measure(
      "names of 100 channel-mates (collection list)",
      `${url}/api/collections/profiles/records?perPage=100&filter=${filter}`,
      auth,
      total,
    );
  } else {
    await measure(
      "names of 100 channel-mates (/api/chat/profiles)",
      `${url}/api/chat/profiles?ids=${mates.join(",")}`,
      auth,
      (b) => `${b.profiles?.length ?? JSON.stringify(b).slice(0, 200)} profiles`,
    );
  }
} finally {
  if (proc) await stopProcess(proc);
  if (!process.env.BENCH_KEEP) await rm(tmp, { recursive: true, force: true });
}

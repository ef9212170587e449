// Listening accounts for the capacity ramp, made cheaply: tens of thousands of sign-ups through the
// API would cost a bcrypt hash each (tens of milliseconds of PocketBase CPU), so the accounts are
// written into the data directory before PocketBase starts, all with one password hash. They then get
// a real auth token from PocketBase (a superuser's impersonation), a session cookie signed exactly like
// the web server's own, and a real membership record. What they do afterwards (open /api/events,
// receive) is what any signed-in page does.
import { execFile } from "node:child_process";
import { copyFile, mkdir, readdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { promisify } from "node:util";
import { createCookieSessionStorage } from "@remix-run/node";
import { request } from "./http.mjs";
import { pool } from "./stats.mjs";

const execFileAsync = promisify(execFile);

// A JS migration run once, by `pocketbase migrate up`, from a copy of the migrations directory.
const SEED_MIGRATION = `
migrate((app) => {
  const count = parseInt($os.getenv("BENCH_SEED_COUNT") || "0", 10);
  const prefix = $os.getenv("BENCH_SEED_PREFIX");
  if (!count || !prefix) return;
  const users = app.findCollectionByNameOrId("users");
  const id = (i) => prefix + String(i).padStart(15 - prefix.length, "0");
  const first = new Record(users);
  first.set("id", id(0));
  first.set("email", id(0) + "@bench.test");
  first.setPassword($security.randomString(30));
  first.set("encrypted_ecdh_private_key", $security.randomString(600));
  first.set("encrypted_rsa_private_key", $security.randomString(2200));
  first.set("kdf_iterations", 600000);
  app.save(first);
  const row = new DynamicModel({ password: "" });
  app.db().newQuery("SELECT password FROM users WHERE id = {:id}").bind({ id: id(0) }).one(row);
  const now = new Date().toISOString().replace("T", " ");
  const insert = app.db().newQuery(
    "INSERT INTO users (id, email, emailVisibility, verified, password, tokenKey, encrypted_ecdh_private_key, " +
      "encrypted_rsa_private_key, kdf_iterations, created, updated) VALUES ({:id}, {:email}, FALSE, FALSE, {:password}, " +
      "{:tokenKey}, {:ecdh}, {:rsa}, 600000, {:now}, {:now})",
  );
  // The wrapped keys are never unwrapped (a listener only holds a live stream): one random value each
  // for all of them, as long as real ones. Fresh strings per account made starting the stack with
  // 36,000 accounts take 42 s instead of 7 s.
  const ecdh = $security.randomString(600);
  const rsa = $security.randomString(2200);
  for (let i = 1; i < count; i++) {
    insert.bind({
      id: id(i),
      email: id(i) + "@bench.test",
      password: row.password,
      tokenKey: $security.randomString(50),
      ecdh,
      rsa,
      now,
    }).execute();
  }
}, () => {});
`;

/**
 * Writes `count` user accounts (ids `prefix` + zero-padded index, 15 characters) into the data
 * directory, applying the real migrations first. Returns their ids.
 */
export async function seedListeners(root, binary, dir, dataDir, count, prefix) {
  const migrations = path.join(dir, "seed-migrations");
  await mkdir(migrations, { recursive: true });
  for (const file of await readdir(path.join(root, "pb_migrations"))) {
    if (file.endsWith(".js")) await copyFile(path.join(root, "pb_migrations", file), path.join(migrations, file));
  }
  await writeFile(path.join(migrations, "9999999999_bench_listeners.js"), SEED_MIGRATION);
  await execFileAsync(binary, ["migrate", "up", "--dir", dataDir, "--migrationsDir", migrations], {
    cwd: root,
    env: { ...process.env, BENCH_SEED_COUNT: String(count), BENCH_SEED_PREFIX: prefix },
    maxBuffer: 10 * 1024 * 1024,
  });
  return Array.from({ length: count }, (_, i) => prefix + String(i).padStart(15 - prefix.length, "0"));
}

/** The web server's session cookie (app/server/session.server.ts) for a user and PocketBase token. */
export function sessionCookies(secret) {
  const storage = createCookieSessionStorage({
    cookie: {
      name: "chatcrypt_session",
      httpOnly: true,
      sameSite: "lax",
      path: "/",
      secure: false,
      secrets: [secret],
      maxAge: 60 * 60 * 24 * 7,
    },
  });
  return async (token, userId) => {
    const session = await storage.getSession();
    session.set("token", token);
    session.set("userId", userId);
    return (await storage.commitSession(session)).split(";")[0];
  };
}

/** Auth tokens for the seeded users: a superuser's impersonation (no password check, no bcrypt). */
export async function impersonate(pbUrl, superuserToken, ids, concurrency = 8) {
  return pool(ids, concurrency, async (id) => {
    const res = await request(`${pbUrl}/api/collections/users/impersonate/${id}?fields=token`, {
      method: "POST",
      headers: { Authorization: superuserToken },
      body: { duration: 6 * 3600 },
    });
    if (res.status !== 200) throw new Error(`impersonate ${id} answered ${res.status}: ${res.text.slice(0, 200)}`);
    return JSON.parse(res.text).token;
  });
}

/** Membership records for the seeded users in one channel, created by a superuser in batches. */
export async function addMembers(pbUrl, superuserToken, channelId, ids, ecdhPublicKey, batchSize = 500) {
  const batches = [];
  for (let i = 0; i < ids.length; i += batchSize) batches.push(ids.slice(i, i + batchSize));
  await pool(batches, 2, async (batch) => {
    const res = await request(`${pbUrl}/api/batch`, {
      method: "POST",
      headers: { Authorization: superuserToken },
      body: {
        requests: batch.map((user) => ({
          method: "POST",
          url: "/api/collections/channel_members/records?fields=id",
          body: { channel: channelId, user, ecdh_public_key: ecdhPublicKey },
        })),
      },
      timeoutMs: 120_000,
    });
    if (res.status !== 200) throw new Error(`membership batch answered ${res.status}: ${res.text.slice(0, 300)}`);
  });
}

// A migrated data directory for the tests' PocketBase processes. Applying our migrations takes about
// 0.6 s of processor time on every start of a fresh data directory (five times what the start itself
// takes); the tests start well over a hundred. So the migrations are applied once per build and set of
// migrations, into a template in the system's temporary directory, and each test's data directory
// starts as a copy of it: the same database a fresh start would make, with the same superuser.
import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import { copyFile, mkdtemp, readFile, readdir, rename, rm, stat, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { createSuperuser, pocketbaseBinary } from "./pocketbase.mjs";

const execFileAsync = promisify(execFile);
/** What a migrated data directory holds before its first start (PocketBase makes the rest). */
const DATABASES = ["data.db", "auxiliary.db"];

/** Which build and which migrations a template was made by: its directory's name. */
async function templateKey(root) {
  const hash = createHash("sha256");
  const binary = await stat(pocketbaseBinary(root));
  hash.update(`${binary.size}:${binary.mtimeMs}\n`);
  const migrations = path.join(root, "pb_migrations");
  for (const name of (await readdir(migrations)).sort()) {
    hash.update(`${name}\n`);
    hash.update(await readFile(path.join(migrations, name)));
  }
  return hash.digest("hex").slice(0, 20);
}

/**
 * The template for this build and these migrations, made when missing. Test processes make it at the
 * same time at most once each: each makes its own in a new directory and renames it into place; a
 * rename that finds the place taken leaves the one already there.
 * @param {string} root the checkout
 * @returns {Promise<{ dir: string, superuser: { email: string, password: string } }>}
 */
async function template(root) {
  const dir = path.join(os.tmpdir(), `chatcrypt-pb-template-${await templateKey(root)}`);
  const read = async () => ({ dir, superuser: JSON.parse(await readFile(path.join(dir, "superuser.json"), "utf8")) });
  try {
    return await read();
  } catch {
    // not made yet
  }
  const making = await mkdtemp(`${dir}-making-`);
  try {
    const superuser = await createSuperuser(root, making, "admin");
    await execFileAsync(
      pocketbaseBinary(root),
      ["migrate", "up", "--dir", making, "--migrationsDir", path.join(root, "pb_migrations"), "--hooksDir", path.join(root, "pb_hooks")],
      { cwd: root },
    );
    await writeFile(path.join(making, "superuser.json"), JSON.stringify(superuser));
    await rename(making, dir).catch(() => undefined);
  } finally {
    await rm(making, { recursive: true, force: true });
  }
  return read();
}

/**
 * Fills an empty data directory with the migrated databases and returns its superuser.
 * @param {string} root the checkout
 * @param {string} dataDir an existing, empty directory
 */
export async function migratedDataDir(root, dataDir) {
  const { dir, superuser } = await template(root);
  for (const name of DATABASES) await copyFile(path.join(dir, name), path.join(dataDir, name));
  return superuser;
}

// Continuous replication of PocketBase's data directory (docs/decisions/0012-supervision-and-replication.md):
// - data.db, the database, through Litestream (bin/litestream) to REPLICA_DIR/data.db or to
//   LITESTREAM_REPLICA_URL (S3-compatible storage in production);
// - every other file that matters (storage/ with the uploaded ciphertext, the web session secret,
//   the first superuser's credentials) mirrored into REPLICA_DIR/files, checked every second.
// auxiliary.db holds only PocketBase's request logs and is not replicated.
import { execFile } from "node:child_process";
import { copyFile, mkdir, readdir, rename, rm, stat, utimes, writeFile } from "node:fs/promises";
import { existsSync } from "node:fs";
import path from "node:path";
import { promisify } from "node:util";

const execFileAsync = promisify(execFile);

/** Replication settings from the environment, or null when REPLICATION=off. */
export function replicationConfig(env, { root, dataDir }) {
  if ((env.REPLICATION ?? "on").toLowerCase() === "off") return null;
  const replicaDir = path.resolve(env.REPLICA_DIR || `${dataDir.replace(/\/+$/, "")}-replica`);
  const url = env.LITESTREAM_REPLICA_URL || "";
  return {
    litestream: path.join(root, "bin", "litestream"),
    dataDir: path.resolve(dataDir),
    database: path.join(path.resolve(dataDir), "data.db"),
    replicaDir,
    databaseReplica: url || `file://${path.join(replicaDir, "data.db")}`,
    filesReplica: path.join(replicaDir, "files"),
    syncInterval: env.REPLICA_SYNC_INTERVAL || "500ms",
    configFile: path.join(path.resolve(dataDir), ".litestream.yml"),
  };
}

/** Writes Litestream's configuration (into the data directory) and returns its path. */
export async function writeLitestreamConfig(config) {
  const yaml = [
    "# Written by scripts/supervise.mjs at every start: edit the environment instead.",
    "dbs:",
    `  - path: ${JSON.stringify(config.database)}`,
    "    monitor-interval: 200ms",
    "    replica:",
    `      url: ${JSON.stringify(config.databaseReplica)}`,
    `      sync-interval: ${JSON.stringify(config.syncInterval)}`,
    "",
  ].join("\n");
  await writeFile(config.configFile, yaml, { mode: 0o600 });
  return config.configFile;
}

// What the file mirror leaves out: the databases (Litestream's job), Litestream's own state,
// PocketBase's backups and temporary files, and logs.
function skipped(relative) {
  const name = path.basename(relative);
  if (/^(data|auxiliary)\.db(-wal|-shm|-journal)?$/.test(relative)) return true;
  if (
    /^\..*-litestream$/.test(name) ||
    name === ".litestream.yml" ||
    name.startsWith(".replication-status.json") ||
    name === ".livekit.yaml"
  )
    return true;
  if (relative === "backups" || name.startsWith(".pb_temp") || name.endsWith(".log") || name.endsWith(".tmp-mirror")) return true;
  return false;
}

async function walk(dir, relative = "", out = new Map()) {
  let entries;
  try {
    entries = await readdir(path.join(dir, relative), { withFileTypes: true });
  } catch {
    return out;
  }
  for (const entry of entries) {
    const rel = relative ? path.join(relative, entry.name) : entry.name;
    if (skipped(rel)) continue;
    if (entry.isDirectory()) await walk(dir, rel, out);
    else if (entry.isFile()) {
      try {
        const info = await stat(path.join(dir, rel));
        out.set(rel, { size: info.size, mtimeMs: Math.floor(info.mtimeMs) });
      } catch {
        // removed while walking
      }
    }
  }
  return out;
}

async function copyAtomically(from, to, mtimeMs) {
  await mkdir(path.dirname(to), { recursive: true });
  const temporary = `${to}.tmp-mirror`;
  await copyFile(from, temporary);
  await utimes(temporary, new Date(), new Date(mtimeMs));
  await rename(temporary, to);
}

/**
 * One pass of the file mirror: copies new and changed files from `source` to `target`. Deletions
 * are carried over only while the source still has its database, so a lost or wiped data
 * directory never empties the replica.
 */
export async function mirrorOnce(source, target) {
  const [wanted, present] = await Promise.all([walk(source), walk(target)]);
  let copied = 0;
  for (const [rel, info] of wanted) {
    const have = present.get(rel);
    if (have && have.size === info.size && have.mtimeMs === info.mtimeMs) continue;
    try {
      await copyAtomically(path.join(source, rel), path.join(target, rel), info.mtimeMs);
      copied++;
    } catch (error) {
      if (error.code !== "ENOENT") throw error;
    }
  }
  let removed = 0;
  if (existsSync(path.join(source, "data.db")) && existsSync(path.join(source, "storage"))) {
    for (const rel of present.keys()) {
      if (!wanted.has(rel) && !existsSync(path.join(source, rel))) {
        await rm(path.join(target, rel), { force: true });
        removed++;
      }
    }
  }
  return { copied, removed };
}

/**
 * Restores the data directory from the replica: data.db through Litestream, the other files from
 * the mirror. With `ifMissing`, does nothing unless data.db is missing and a replica exists.
 * Returns what it did.
 */
export async function restore(config, { ifMissing = false, force = false } = {}) {
  if (ifMissing && existsSync(config.database)) return { restored: false, reason: "the data directory already has a database" };
  if (!ifMissing && existsSync(config.database) && !force) {
    throw new Error(`${config.database} exists: stop the product and move the data directory away first (or pass --force).`);
  }
  await mkdir(config.dataDir, { recursive: true });
  if (force) for (const suffix of ["", "-wal", "-shm"]) await rm(config.database + suffix, { force: true });
  const args = ["restore", "-o", config.database];
  if (ifMissing) args.push("-if-replica-exists");
  args.push(config.databaseReplica);
  const started = Date.now();
  const { stdout, stderr } = await execFileAsync(config.litestream, args, { maxBuffer: 10 * 1024 * 1024 });
  if (!existsSync(config.database)) return { restored: false, reason: "no replica yet", output: stdout + stderr };
  const files = existsSync(config.filesReplica) ? await mirrorOnce(config.filesReplica, config.dataDir) : { copied: 0 };
  return { restored: true, files: files.copied, milliseconds: Date.now() - started };
}

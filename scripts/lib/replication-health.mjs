// Whether replication keeps up (issue 47, docs/decisions/0069-what-reaches-pocketbase-directly.md):
// the supervisor checks every few seconds that Litestream runs and, for a replica on this machine,
// that the replica has not been missing a change for more than 10 s. What it finds goes into the data
// directory (.replication-status.json), where PocketBase reads it for the admin console's Health
// section (pb_hooks/health.pb.js), and into the supervisor's log when it changes.
import { readdir, rename, stat, writeFile } from "node:fs/promises";
import path from "node:path";

/** The file in the data directory that says how replication is doing. */
export const STATUS_FILE = ".replication-status.json";
/** How long the database may have changes the replica has not taken before replication counts as stopped. */
export const LAG_LIMIT_MS = 10_000;

async function mtimeMs(file) {
  try {
    return (await stat(file)).mtimeMs;
  } catch {
    return 0;
  }
}

/** The newest modification time of any file under `dir` (0 when there is none). */
async function newestUnder(dir) {
  let entries;
  try {
    entries = await readdir(dir, { withFileTypes: true });
  } catch {
    return mtimeMs(dir);
  }
  let newest = 0;
  for (const entry of entries) {
    const full = path.join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? await newestUnder(full) : await mtimeMs(full));
  }
  return newest;
}

/**
 * What one check leaves for the next: since when the replica has been missing a change (0: it has
 * them all), and when the last check ran (0: none yet). Replication counts as stopped only when the
 * replica has been missing a change for longer than the limit, not when the first write after a quiet
 * spell meets a replica last written long ago.
 * @returns {{ unreplicatedSince: number, checkedAt: number }}
 */
export function newReplicationWatch() {
  return { unreplicatedSince: 0, checkedAt: 0 };
}

/**
 * How replication is doing now.
 * @param {{ database: string, databaseReplica: string }} config (scripts/lib/replication.mjs)
 * @param {{ running: boolean, now?: number, watch?: { unreplicatedSince: number } }} litestream whether
 *   the Litestream process is running; `watch` is kept from one check to the next (newReplicationWatch)
 * @returns {Promise<{ state: "ok" | "behind" | "stopped", message: string, checkedAt: string,
 *   changedAt: string | null, replicatedAt: string | null, walBytes: number }>}
 */
export async function replicationStatus(config, { running, now = Date.now(), watch = newReplicationWatch() }) {
  const changed = Math.max(await mtimeMs(config.database), await mtimeMs(`${config.database}-wal`));
  let walBytes = 0;
  try {
    walBytes = (await stat(`${config.database}-wal`)).size;
  } catch {
    // no write-ahead log right now
  }
  const local = config.databaseReplica.startsWith("file://") ? config.databaseReplica.slice("file://".length) : null;
  const replicated = local ? await newestUnder(local) : 0;
  const iso = (ms) => (ms ? new Date(ms).toISOString() : null);
  const base = { checkedAt: iso(now), changedAt: iso(changed), replicatedAt: iso(replicated), walBytes };
  const waiting = (ms) => `${Math.round(ms / 1000)} s`;
  if (!running) {
    return { state: "stopped", message: "Replication has stopped: Litestream is not running (the supervisor restarts it).", ...base };
  }
  // the replica has taken every change up to the one waiting: watch the next one it has not. The
  // database's time is that of its latest change; the first one the replica is missing came after the
  // replica's last write and after the last check, which found nothing missing (several writes between
  // two checks would otherwise count from the last of them, up to a check later)
  if (watch.unreplicatedSince && replicated >= watch.unreplicatedSince) watch.unreplicatedSince = 0;
  if (!watch.unreplicatedSince && changed > replicated) {
    watch.unreplicatedSince = Math.min(changed, Math.max(replicated, watch.checkedAt || changed));
  }
  watch.checkedAt = now;
  const waitingSince = watch.unreplicatedSince;
  if (local && waitingSince && now - waitingSince > LAG_LIMIT_MS) {
    return {
      state: "behind",
      message: `Replication has stopped: the database has changed since the replica was last written, ${waiting(now - replicated)} ago. Litestream is running but not replicating.`,
      ...base,
    };
  }
  return { state: "ok", message: "Replication is up to date.", ...base };
}

/** Writes the status into the data directory, whole or not at all. */
export async function writeReplicationStatus(dataDir, status) {
  const file = path.join(dataDir, STATUS_FILE);
  await writeFile(`${file}.tmp`, JSON.stringify(status), { mode: 0o600 });
  await rename(`${file}.tmp`, file);
}

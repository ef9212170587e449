// The retention phase (issue 44 item 4, docs/decisions/0065-retention.md): BENCH_RETENTION_MESSAGES
// messages (default 1,000,000; every tenth a reaction to the one before) are written straight into
// PocketBase's database with times in 2020, the workspace keeps messages 30 days, and one sweep
// (POST /api/chat/retention/sweep as the superuser) deletes them in batches. Measured: the sweep's time,
// the longest write-lock hold of a batch (the sweep's own report), and what a writer meanwhile sees:
// a superuser posting into another channel, one message after the other, for the whole sweep.
import { execFile } from "node:child_process";
import path from "node:path";
import { createChannel } from "./chat.mjs";
import { request } from "./http.mjs";
import { percentile } from "./stats.mjs";
import { ms, n, yes } from "./format.mjs";

export const RETENTION_MESSAGES = Number(process.env.BENCH_RETENTION_MESSAGES || 1_000_000);
/** The sweep's batch size (BENCH_RETENTION_BATCH; default: the server's own). */
const BATCH = process.env.BENCH_RETENTION_BATCH ? `?batch=${Number(process.env.BENCH_RETENTION_BATCH)}` : "";

/** Writes `count` old messages into the channel in one transaction (the sqlite3 shell, on the live WAL database). */
async function seedOld(dataDir, channelId, senderId, count) {
  const content = "A".repeat(160);
  const sql = `PRAGMA busy_timeout = 30000;
BEGIN IMMEDIATE;
WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ${count})
INSERT INTO messages (id, channel, sender, encrypted_content, created, kind, target)
SELECT printf('rt%013d', i), '${channelId}', '${senderId}', '${content}',
  strftime('%Y-%m-%d %H:%M:%f', '2020-01-01', '+' || (i / 100) || ' seconds') || 'Z',
  CASE WHEN i % 10 = 0 THEN 'reaction' ELSE '' END,
  CASE WHEN i % 10 = 0 THEN printf('rt%013d', i - 1) ELSE '' END
FROM n;
COMMIT;`;
  await sqlite(path.join(dataDir, "data.db"), sql);
}

/** Runs a script in the sqlite3 shell (fed through its stdin). */
function sqlite(file, script) {
  return new Promise((resolve, reject) => {
    const child = execFile("sqlite3", [file], { maxBuffer: 1024 * 1024 }, (error, stdout, stderr) =>
      error ? reject(new Error(`sqlite3: ${stderr || error.message}`)) : resolve(stdout),
    );
    child.stdin.end(script);
  });
}

export async function retentionPhase({ stack, c, reader, tag, log, count = RETENTION_MESSAGES }) {
  const auth = { Authorization: stack.superuserToken };
  const api = async (method, route, body, timeoutMs) => {
    const res = await request(`${stack.pbUrl}${route}`, { method, headers: auth, body, timeoutMs });
    if (res.status !== 200) throw new Error(`${method} ${route}: ${res.status} ${res.text.slice(0, 200)}`);
    return JSON.parse(res.text);
  };
  const channel = await createChannel(c, reader, `bench-retention-${tag}`, `pw-R-${tag}`);
  const probeChannel = await createChannel(c, reader, `bench-retention-probe-${tag}`, `pw-P-${tag}`);

  let t = performance.now();
  await seedOld(stack.dataDir, channel.id, reader.user.id, count);
  const seedSeconds = (performance.now() - t) / 1000;
  log(`  retention: ${count.toLocaleString("en")} messages from 2020 written in ${seedSeconds.toFixed(1)} s`);

  await api("PATCH", "/api/collections/workspace_settings/records/workspace000001", { retention_days: 30 });
  const probe = { latencies: [], stop: false };
  const probing = (async () => {
    while (!probe.stop) {
      const start = performance.now();
      await api("POST", "/api/collections/messages/records", {
        channel: probeChannel.id,
        sender: reader.user.id,
        encrypted_content: "B".repeat(160),
      });
      probe.latencies.push(performance.now() - start);
    }
  })();
  t = performance.now();
  let report;
  try {
    report = await api("POST", `/api/chat/retention/sweep${BATCH}`, undefined, 30 * 60_000);
  } finally {
    probe.stop = true;
    await probing;
  }
  const wallSeconds = (performance.now() - t) / 1000;
  await api("PATCH", "/api/collections/workspace_settings/records/workspace000001", { retention_days: 0 });
  const left = await api("GET", `/api/collections/messages/records?perPage=1&filter=${encodeURIComponent(`channel = "${channel.id}"`)}`);
  const sorted = [...probe.latencies].sort((a, b) => a - b);
  const result = {
    messages: report.rows,
    seeded: count,
    left: left.totalItems,
    seconds: report.total_ms / 1000,
    wallSeconds,
    batches: report.batches,
    longestLockMs: report.longest_lock_ms,
    medianLockMs: report.median_lock_ms,
    p99LockMs: report.p99_lock_ms,
    longestStatementsMs: report.longest_statements_ms,
    seedSeconds,
    writes: { n: sorted.length, p50: percentile(sorted, 50), p99: percentile(sorted, 99), max: sorted.at(-1) ?? NaN },
  };
  log(
    `  retention: swept ${result.messages.toLocaleString("en")} in ${result.seconds.toFixed(1)} s (${result.batches} batches), lock per batch p50 ${result.medianLockMs} p99 ${result.p99LockMs} max ${result.longestLockMs} ms (statements alone max ${result.longestStatementsMs} ms); ` +
      `a writer meanwhile: p50 ${result.writes.p50?.toFixed(1)} p99 ${result.writes.p99?.toFixed(1)} max ${result.writes.max?.toFixed(1)} ms over ${result.writes.n} writes; ${result.left} left`,
  );
  return result;
}

/** The phase's rows in docs/benchmarks.md. */
export function retentionRows(r) {
  const s = r.retention;
  if (!s) return [];
  if (s.error) return [["retention sweep", `not measured: ${s.error}`, "—", "—", "—"]];
  const ok = s.left === 0 && s.messages === s.seeded;
  return [
    [
      `retention: sweep of ${n(s.seeded)} messages (every tenth a reaction)`,
      `${n(s.seconds, 1)} s`,
      `${n(s.messages / s.seconds)} messages/s, ${n(s.batches)} batches, ${n(s.left)} left`,
      "all deleted",
      yes(ok),
    ],
    [
      "retention: write-lock hold per batch, p50 / p99",
      `${ms(s.medianLockMs, 1)} / ${ms(s.p99LockMs, 1)}`,
      `longest ${ms(s.longestLockMs, 1)} (with the commit; its statements alone at most ${ms(s.longestStatementsMs, 1)}); a writer meanwhile: p50 ${ms(s.writes.p50, 1)}, p99 ${ms(s.writes.p99, 1)}, max ${ms(s.writes.max, 1)} (${n(s.writes.n)} writes)`,
      "< 50 ms (longest)",
      yes(s.longestLockMs < 50),
    ],
  ];
}

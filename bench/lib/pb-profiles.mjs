// PocketBase's profiles of a capacity round, to find what makes a create wait (issue 49). With
// PB_PPROF=127.0.0.1:<port> (pocketbase/pprof.go) and BENCH_PB_PROFILES=<dir>, each round at or past
// BENCH_PB_PROFILES_FROM clients (default 10,000) writes into <dir>: the CPU profile, the execution
// trace (`go tool trace`), and the blocking and mutex profiles over the round (deltas). Read them with
// `go tool pprof -top bin/pocketbase <file>` or `go tool trace <file>`. With BENCH_PB_PROFILES set,
// PocketBase's own times of the round's slowest message creates (its request log) are printed too.
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";

const dir = process.env.BENCH_PB_PROFILES;
const from = Number(process.env.BENCH_PB_PROFILES_FROM ?? 10_000);

async function save(url, file) {
  try {
    const res = await fetch(url);
    if (!res.ok) return `${path.basename(file)}: ${res.status}`;
    await writeFile(file, Buffer.from(await res.arrayBuffer()));
    return null;
  } catch (error) {
    return `${path.basename(file)}: ${error.message}`;
  }
}

/**
 * Starts PocketBase's profiles for a round of `seconds` at `level` clients and `rate` messages/s;
 * returns a function that waits for them (and answers the files' problems, if any), or null when the
 * profiles are off or the level is below BENCH_PB_PROFILES_FROM.
 */
export function profileRound(level, rate, seconds) {
  const pprof = process.env.PB_PPROF;
  if (!dir || !pprof || level < from) return null;
  const base = `http://${pprof}/debug/pprof`;
  const name = `${level}-${rate}`;
  const s = Math.ceil(seconds);
  const done = mkdir(dir, { recursive: true }).then(() =>
    Promise.all([
      save(`${base}/profile?seconds=${s}`, path.join(dir, `cpu-${name}.pprof`)),
      save(`${base}/trace?seconds=${s}`, path.join(dir, `trace-${name}.out`)),
      save(`${base}/block?seconds=${s}`, path.join(dir, `block-${name}.pprof`)),
      save(`${base}/mutex?seconds=${s}`, path.join(dir, `mutex-${name}.pprof`)),
    ]),
  );
  return async () => (await done).filter(Boolean);
}

/**
 * PocketBase's own times (its request log's execTime, ms) of the slowest message creates since
 * `since` (a Date), slowest first; null unless BENCH_PB_PROFILES is set.
 */
export async function slowCreates(stack, since, n = 5) {
  if (!dir) return null;
  const filter = `created >= "${since.toISOString().replace("T", " ")}" && data.method = "POST" && data.url ~ "/messages"`;
  const url = `${stack.pbUrl}/api/logs?perPage=${n}&sort=-data.execTime&filter=${encodeURIComponent(filter)}`;
  const res = await fetch(url, { headers: { Authorization: stack.superuserToken } });
  if (!res.ok) return [`request log: ${res.status}`];
  const { items } = await res.json();
  return items.map((item) => item.data?.execTime);
}

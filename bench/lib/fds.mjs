import { spawnSync } from "node:child_process";

// The bench's file descriptors: every simulated page holds a socket here and one in a web process.
// npm run bench (scripts/bench.sh) raises the soft limit to the hard one; run directly, the bench
// re-runs itself under a shell that does the same. PocketBase and the web server inherit it.
const WANT_FDS = 65_536;
export function fdLimits() {
  const soft = Number(spawnSync("sh", ["-c", "ulimit -Sn"], { encoding: "utf8" }).stdout.trim());
  const hard = spawnSync("sh", ["-c", "ulimit -Hn"], { encoding: "utf8" }).stdout.trim();
  return { soft, hard: hard === "unlimited" ? Infinity : Number(hard) };
}
/** Runs the bench again under a shell that raised the soft limit, when it is below what the bench wants. */
export function raiseFdLimit() {
  const { soft, hard } = fdLimits();
  if (soft < Math.min(WANT_FDS, hard) && !process.env.CHATCRYPT_BENCH_REEXEC) {
    const target = Math.min(WANT_FDS, hard);
    const r = spawnSync("bash", ["-c", `ulimit -n ${target} && exec "$0" "$@"`, process.execPath, ...process.argv.slice(1)], {
      stdio: "inherit",
      env: { ...process.env, CHATCRYPT_BENCH_REEXEC: "1" },
    });
    process.exit(r.status ?? 1);
  }
}

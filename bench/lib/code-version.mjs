import { execFileSync } from "node:child_process";

/** The commit measured, and whether the application code differs from it. */
export function codeVersion() {
  try {
    const commit = execFileSync("git", ["rev-parse", "--short", "HEAD"], { encoding: "utf8" }).trim();
    const dirty = execFileSync(
      "git",
      [
        "status",
        "--porcelain",
        "--",
        "app",
        "pb_hooks",
        "pb_migrations",
        "pocketbase",
        "server.mjs",
        "remix.config.js",
        "vite.config.ts",
        "package-lock.json",
      ],
      { encoding: "utf8" },
    ).trim();
    return dirty ? `${commit} with uncommitted application changes` : commit;
  } catch {
    return "unknown";
  }
}

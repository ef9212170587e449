import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";

/**
 * The import graph check (.dependency-cruiser.cjs, run by `npm run lint` and the test command) run on
 * fixture files made in a folder of their own (with a tsconfig giving `~/` the same meaning and, when
 * asked, the project's packages), so the app's build never sees them. Answers "rule file" per violation.
 */
export function cruiseViolations(files: Record<string, string>, options: { packages?: boolean } = {}): string[] {
  const root = mkdtempSync(path.join(os.tmpdir(), "chatcrypt-graph-"));
  const repo = path.resolve(__dirname, "../..");
  try {
    for (const [name, text] of Object.entries(files)) {
      mkdirSync(path.dirname(path.join(root, name)), { recursive: true });
      writeFileSync(path.join(root, name), text);
    }
    writeFileSync(path.join(root, "tsconfig.json"), JSON.stringify({ compilerOptions: { baseUrl: ".", paths: { "~/*": ["./app/*"] } } }));
    if (options.packages) symlinkSync(path.join(repo, "node_modules"), path.join(root, "node_modules"));
    const bin = path.join(repo, "node_modules", ".bin", "depcruise");
    const config = path.join(repo, ".dependency-cruiser.cjs");
    const run = spawnSync(bin, ["app", "--config", config, "--output-type", "json"], { cwd: root, encoding: "utf8" });
    const output = JSON.parse(run.stdout) as { summary: { violations: { rule: { name: string }; from: string }[] } };
    return output.summary.violations.map((v) => `${v.rule.name} ${v.from}`);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

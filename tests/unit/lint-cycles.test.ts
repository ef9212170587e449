import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync, mkdirSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { ESLint, type Linter } from "eslint";
import { createTypeScriptImportResolver } from "eslint-import-resolver-typescript";
import { afterAll, describe, expect, it } from "vitest";
import config from "../../eslint.config.js";

// The linter refuses an import cycle in the app (ADR 19): the project's ESLint configuration applies
// import-x/no-cycle to app/, and that entry, run on two files importing each other through the `~/`
// alias, reports the cycle. The files are made in a folder of their own (with a tsconfig giving `~/`
// the same meaning), so the app's build never sees them.
const entry = (config as Linter.Config[]).find((c) => c.rules?.["import-x/no-cycle"]);
const dir = mkdtempSync(path.join(os.tmpdir(), "chatcrypt-cycle-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function lint(files: Record<string, string>) {
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    writeFileSync(path.join(dir, name), text);
  }
  writeFileSync(path.join(dir, "tsconfig.json"), JSON.stringify({ compilerOptions: { baseUrl: ".", paths: { "~/*": ["./app/*"] } } }));
  const resolver = createTypeScriptImportResolver({ project: path.join(dir, "tsconfig.json") });
  const eslint = new ESLint({
    cwd: dir,
    overrideConfigFile: true,
    overrideConfig: [{ ...entry!, settings: { ...entry!.settings, "import-x/resolver-next": [resolver] } }],
  });
  return (await eslint.lintFiles(Object.keys(files).map((f) => path.join(dir, f)))).flatMap((r) => r.messages.map((m) => m.ruleId));
}

describe("import cycles", () => {
  it("the project's configuration checks every app file for them", () => {
    expect(entry?.files).toEqual(["app/**/*.tsx", "app/**/*.ts"]);
    expect(entry?.rules?.["import-x/no-cycle"]).toEqual(["error", { ignoreExternal: true }]);
  });

  it("a cycle through the ~/ alias is an error; the same files without it are not", async () => {
    const cyclic = await lint({
      "app/features/a/a.ts": 'import { b } from "~/features/b/b";\nexport const a = () => b;\n',
      "app/features/b/b.ts": 'import { a } from "~/features/a/a";\nexport const b = () => a;\n',
    });
    expect(cyclic).toContain("import-x/no-cycle");
    const fine = await lint({
      "app/features/a/a.ts": 'import { b } from "~/features/b/b";\nexport const a = () => b;\n',
      "app/features/b/b.ts": "export const b = () => 1;\n",
    });
    expect(fine).not.toContain("import-x/no-cycle");
  });
});

// ESLint's rule skips type-only imports; the dependency graph check (.dependency-cruiser.cjs, run by
// `npm run lint` and the test command) counts them.
function cruiseCycles(files: Record<string, string>) {
  const root = mkdtempSync(path.join(os.tmpdir(), "chatcrypt-graph-"));
  try {
    for (const [name, text] of Object.entries(files)) {
      mkdirSync(path.dirname(path.join(root, name)), { recursive: true });
      writeFileSync(path.join(root, name), text);
    }
    writeFileSync(path.join(root, "tsconfig.json"), JSON.stringify({ compilerOptions: { baseUrl: ".", paths: { "~/*": ["./app/*"] } } }));
    const repo = path.resolve(__dirname, "../..");
    const bin = path.join(repo, "node_modules", ".bin", "depcruise");
    const config = path.join(repo, ".dependency-cruiser.cjs");
    const run = spawnSync(bin, ["app", "--config", config, "--output-type", "json"], { cwd: root, encoding: "utf8" });
    const output = JSON.parse(run.stdout) as { summary: { violations: { rule: { name: string } }[] } };
    return output.summary.violations.map((v) => v.rule.name);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

describe("type-only import cycles", () => {
  it("a cycle made only of type imports fails the graph check; without the cycle it passes", () => {
    const cyclic = cruiseCycles({
      "app/features/a/a.ts": 'import type { B } from "~/features/b/b";\nexport interface A { b?: B }\n',
      "app/features/b/b.ts": 'import type { A } from "~/features/a/a";\nexport interface B { a?: A }\n',
    });
    expect(cyclic).toContain("no-circular");
    const fine = cruiseCycles({
      "app/features/a/a.ts": 'import type { B } from "~/features/b/b";\nexport interface A { b?: B }\n',
      "app/features/b/b.ts": "export interface B { n: number }\n",
    });
    expect(fine).toEqual([]);
  });
});

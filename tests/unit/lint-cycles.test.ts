import { mkdtempSync, rmSync, writeFileSync, mkdirSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { ESLint, type Linter } from "eslint";
import { createTypeScriptImportResolver } from "eslint-import-resolver-typescript";
import { afterAll, describe, expect, it } from "vitest";
import config from "../../eslint.config.js";
import { cruiseViolations } from "./cruise";

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
describe("type-only import cycles", () => {
  it("a cycle made only of type imports fails the graph check; without the cycle it passes", { timeout: 60_000 }, () => {
    const cyclic = cruiseViolations({
      "app/features/a/a.ts": 'import type { B } from "~/features/b/b";\nexport interface A { b?: B }\n',
      "app/features/b/b.ts": 'import type { A } from "~/features/a/a";\nexport interface B { a?: A }\n',
    });
    expect(cyclic.map((v) => v.split(" ")[0])).toContain("no-circular");
    const fine = cruiseViolations({
      "app/features/a/a.ts": 'import type { B } from "~/features/b/b";\nexport interface A { b?: B }\n',
      "app/features/b/b.ts": "export interface B { n: number }\n",
    });
    expect(fine).toEqual([]);
  });
});

describe("layers", () => {
  it("server/, lib/ and crypto/ importing a feature fail the graph check; crypto/ imports nothing else", { timeout: 60_000 }, () => {
    const violations = cruiseViolations({
      "app/features/a/a.ts": "export const a = 1;\n",
      "app/features/b/b.ts": 'import { a } from "~/features/a/a";\nexport const b = a;\n',
      "app/server/s.server.ts": 'import { a } from "~/features/a/a";\nexport const s = a;\n',
      "app/lib/l.ts": 'import type { a } from "~/features/a/a";\nexport type L = typeof a;\nexport const l = 1;\n',
      "app/crypto/c.ts": 'import { l } from "~/lib/l";\nexport const c = l;\n',
    });
    expect(violations.sort()).toEqual([
      "crypto-stands-alone app/crypto/c.ts",
      "layers-below-features app/lib/l.ts",
      "layers-below-features app/server/s.server.ts",
    ]);
  });
});

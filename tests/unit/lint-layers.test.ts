import path from "node:path";
import { ESLint, type Linter } from "eslint";
import { describe, expect, it } from "vitest";
import config from "../../eslint.config.js";
import { cruiseViolations } from "./cruise";

// The layers of ADR 0083, enforced by the import graph check (.dependency-cruiser.cjs) that `npm run
// lint` runs (React by ESLint): the conversation core imports no feature (nor a route, a screen or React), and nothing
// outside a feature imports its internals (the files in a subfolder of it).
const feature = "export const a = 1;\n";

describe("the conversation core", () => {
  it("importing a feature fails, by value or by type; importing lib/ and crypto/ does not", { timeout: 60_000 }, () => {
    const violations = cruiseViolations({
      "app/features/a/a.ts": feature,
      "app/lib/l.ts": "export const l = 1;\n",
      "app/conversation/value.ts": 'import { a } from "~/features/a/a";\nexport const v = a;\n',
      "app/conversation/typed.ts": 'import type { a } from "~/features/a/a";\nexport type T = typeof a;\n',
      "app/conversation/fine.ts": 'import { l } from "~/lib/l";\nexport const f = l;\n',
      "app/features/b/b.ts": 'import { f } from "~/conversation/fine";\nexport const b = f;\n',
    });
    expect(violations.sort()).toEqual(["core-below-features app/conversation/typed.ts", "core-below-features app/conversation/value.ts"]);
  });

  it("importing React fails the linter: the core draws nothing", async () => {
    const entry = (config as Linter.Config[]).find(
      (c) => c.rules?.["no-restricted-imports"] && String(c.files?.[0]).startsWith("app/conversation/"),
    );
    const eslint = new ESLint({ cwd: path.resolve(__dirname, "../.."), overrideConfigFile: true, overrideConfig: [entry!] });
    const lint = async (text: string) =>
      (await eslint.lintText(text, { filePath: "app/conversation/drawn.ts" })).flatMap((r) => r.messages.map((m) => m.ruleId));
    expect(await lint('import { useState } from "react";\nexport const d = useState;\n')).toEqual(["no-restricted-imports"]);
    expect(await lint('import { createRoot } from "react-dom/client";\nexport const d = createRoot;\n')).toEqual(["no-restricted-imports"]);
    expect(await lint('import { api } from "~/lib/api.client";\nexport const d = api;\n')).toEqual([]);
  });

  it("lib/ below it importing it fails", { timeout: 60_000 }, () => {
    const violations = cruiseViolations({
      "app/conversation/c.ts": "export const c = 1;\n",
      "app/lib/l.ts": 'import { c } from "~/conversation/c";\nexport const l = c;\n',
    });
    expect(violations).toEqual(["layers-below-features app/lib/l.ts"]);
  });
});

describe("a feature's internals", () => {
  it("another feature or a route importing them fails; the feature itself and its public files do not", { timeout: 60_000 }, () => {
    const violations = cruiseViolations({
      "app/features/a/a.ts": 'import { part } from "~/features/a/parts/part";\nexport const a = part;\n',
      "app/features/a/parts/part.ts": "export const part = 1;\n",
      "app/features/b/b.ts": 'import { part } from "~/features/a/parts/part";\nexport const b = part;\n',
      "app/features/c/c.ts": 'import { a } from "~/features/a/a";\nexport const c = a;\n',
      "app/routes/r.ts": 'import type { part } from "~/features/a/parts/part";\nexport type R = typeof part;\n',
    });
    expect(violations.sort()).toEqual(["feature-internals app/features/b/b.ts", "feature-internals-outside app/routes/r.ts"]);
  });
});

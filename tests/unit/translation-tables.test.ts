// The target languages exist twice: in the page (app/features/translation/languages.ts) and in the
// translate hook (pb_hooks/lib/translation.js, which PocketBase's JavaScript engine loads without the
// app's modules). This test fails as soon as the two disagree on a code or a name.

import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { TARGET_LANGUAGES } from "~/features/translation/languages";

const hooks = path.resolve(__dirname, "../../pb_hooks");

/** Loads a hook library the way PocketBase does: CommonJS with `__hooks` and its own `require`. */
function loadHookModule(file: string, cache = new Map<string, unknown>()): unknown {
  if (cache.has(file)) return cache.get(file);
  const module = { exports: {} as unknown };
  cache.set(file, module.exports);
  const source = readFileSync(file, "utf8");
  const requireHook = (wanted: string) => loadHookModule(path.resolve(hooks, wanted.replace(/^.*?\/lib\//, "lib/")), cache);
  new Function("module", "exports", "require", "__hooks", source)(module, module.exports, requireHook, hooks);
  cache.set(file, module.exports);
  return module.exports;
}

describe("the two tables of target languages", () => {
  it("list the same codes with the same names, in the same order", () => {
    const hook = loadHookModule(path.join(hooks, "lib/translation.js")) as { LANGUAGE_NAMES: Record<string, string> };
    expect(Object.entries(hook.LANGUAGE_NAMES)).toEqual(TARGET_LANGUAGES.map((language) => [language.code, language.name]));
  });
});

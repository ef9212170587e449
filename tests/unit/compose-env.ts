/**
 * The settings side of the compose tests: what .env.example declares, and the variables the code
 * reads (the web server's and PocketBase's), found by scanning the sources.
 */
import { existsSync, readdirSync, statSync } from "node:fs";
import path from "node:path";
import ts from "typescript";
import { read, root } from "./compose-files";

const envExampleText = read(".env.example");
/** NAME=value lines: in effect. */
export const envActive: Record<string, string> = {};
/** "# NAME=value" lines: optional settings, off unless uncommented. */
const envOptional = new Set<string>();
for (const line of envExampleText.split("\n")) {
  const active = /^([A-Z][A-Z0-9_]*)=(.*)$/.exec(line);
  if (active) envActive[active[1]] = active[2];
  const optional = /^#\s?([A-Z][A-Z0-9_]*)=/.exec(line);
  if (optional) envOptional.add(optional[1]);
}
export const envDeclared = new Set([...Object.keys(envActive), ...envOptional]);
/** Every upper-case name the file mentions, declared or described (e.g. the variables set by the images). */
export const envMentioned = new Set(envExampleText.match(/\b[A-Z][A-Z0-9_]{2,}\b/g) ?? []);

// ---- what the code reads ---------------------------------------------------------------------

function filesUnder(dir: string, pattern: RegExp): string[] {
  const full = path.join(root, dir);
  if (!existsSync(full)) return [];
  return readdirSync(full).flatMap((name) => {
    const rel = path.join(dir, name);
    if (statSync(path.join(root, rel)).isDirectory()) return filesUnder(rel, pattern);
    return pattern.test(name) ? [rel] : [];
  });
}

/** A JS or TS file's code with its comments removed, so that a comment naming a variable does not count. */
function codeOf(file: string): string {
  const kind = file.endsWith(".tsx") ? ts.ScriptKind.TSX : file.endsWith(".ts") ? ts.ScriptKind.TS : ts.ScriptKind.JS;
  const source = ts.createSourceFile(file, read(file), ts.ScriptTarget.Latest, false, kind);
  return ts.createPrinter({ removeComments: true }).printFile(source);
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** Variables the web server reads: the zod schema of app/server/env.server.ts and process.env anywhere it runs. */
function webReads(): Map<string, string> {
  const found = new Map<string, string>();
  const schema = codeOf("app/server/env.server.ts");
  for (const m of schema.matchAll(/\b([A-Z][A-Z0-9_]*)\s*:\s*z\./g)) found.set(m[1], "app/server/env.server.ts");
  for (const file of ["server.mjs", ...filesUnder("server", /\.(mjs|js|ts)$/), ...filesUnder("app", /\.(ts|tsx)$/)]) {
    const code = codeOf(file);
    for (const m of code.matchAll(/\bprocess\.env\.([A-Za-z_][A-Za-z0-9_]*)/g)) found.set(m[1], file);
    for (const m of code.matchAll(/\bprocess\.env\[\s*(["'`])([A-Za-z_][A-Za-z0-9_]*)\1\s*\]/g)) found.set(m[2], file);
  }
  return found;
}

/**
 * Variables PocketBase reads: $os.getenv("X") in pb_hooks/ (also through small helpers such as
 * `function env(name) { return $os.getenv(name) ... }`, called as env("X")) and os.Getenv("X") in
 * pocketbase/*.go. A read this scan cannot name fails the test instead of going unnoticed.
 */
function pocketbaseReads(): { found: Map<string, string>; unnamed: string[] } {
  const found = new Map<string, string>();
  const unnamed: string[] = [];
  const hooks = filesUnder("pb_hooks", /\.js$/);
  // A helper defined in one library is called in the others that require it.
  const helpers = new Map<string, string>();
  const helperForms = [
    /function\s+([A-Za-z_$][\w$]*)\s*\(\s*([A-Za-z_$][\w$]*)[^)]*\)\s*\{[^{}]*?\$os\.getenv\(\s*\2\s*\)/g,
    /(?:const|let|var)\s+([A-Za-z_$][\w$]*)\s*=\s*(?:function\s*)?\(?\s*([A-Za-z_$][\w$]*)[^)=]*\)?\s*(?:=>)?\s*\{?[^{}]*?\$os\.getenv\(\s*\2\s*\)/g,
  ];
  for (const file of hooks) for (const form of helperForms) for (const m of codeOf(file).matchAll(form)) helpers.set(m[1], m[2]);
  for (const file of hooks) {
    const code = codeOf(file);
    for (const m of code.matchAll(/\$os\.getenv\(\s*([^)]*?)\s*\)/g)) {
      const literal = /^(["'`])([A-Za-z_][A-Za-z0-9_]*)\1$/.exec(m[1]);
      if (literal) found.set(literal[2], file);
      else if (![...helpers.values()].includes(m[1])) unnamed.push(`${file}: $os.getenv(${m[1]})`);
    }
    for (const helper of helpers.keys()) {
      const calls = new RegExp(`(?<![\\w$.])${escapeRegExp(helper)}\\(\\s*([^,)]*)`, "g");
      for (const m of code.matchAll(calls)) {
        const literal = /^(["'`])([A-Za-z_][A-Za-z0-9_]*)\1$/.exec(m[1].trim());
        if (literal) found.set(literal[2], file);
        else if (m.index !== undefined && !/function\s+$/.test(code.slice(Math.max(0, m.index - 20), m.index))) {
          unnamed.push(`${file}: ${helper}(${m[1]})`);
        }
      }
    }
  }
  for (const file of filesUnder("pocketbase", /\.go$/).filter((f) => !f.endsWith("_test.go"))) {
    const code = read(file).replace(/(^|\s)\/\/.*$/gm, "$1");
    for (const m of code.matchAll(/\bos\.(?:Getenv|LookupEnv)\(\s*([^)]*?)\s*\)/g)) {
      const literal = /^"([A-Za-z_][A-Za-z0-9_]*)"$/.exec(m[1]);
      if (literal) found.set(literal[1], file);
      else unnamed.push(`${file}: os.Getenv(${m[1]})`);
    }
  }
  return { found, unnamed };
}

export const webVariables = webReads();
export const { found: pocketbaseVariables, unnamed: unnamedReads } = pocketbaseReads();

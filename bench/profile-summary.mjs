// Summarises a V8 CPU profile (e.g. the web server's, from BENCH_WEB_CPU_PROFILE=<dir> npm run bench):
// self time by package / file, the top functions, and inclusive time by function.
// Usage: node bench/profile-summary.mjs <file.cpuprofile> [top] [fromSeconds toSeconds]
// (the optional window is in seconds since the profile started, i.e. since the web server started).
import { readFileSync } from "node:fs";

const [file, topArg, fromArg, toArg] = process.argv.slice(2);
if (!file) {
  console.error("usage: node bench/profile-summary.mjs <file.cpuprofile> [top]");
  process.exit(2);
}
const top = Number(topArg ?? 25);
const profile = JSON.parse(readFileSync(file, "utf8"));
const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
const from = fromArg === undefined ? -Infinity : Number(fromArg) * 1e6;
const to = toArg === undefined ? Infinity : Number(toArg) * 1e6;
const self = new Map();
let at = 0;
for (let i = 0; i < profile.samples.length; i++) {
  at += profile.timeDeltas[i] ?? 0;
  if (at < from || at > to) continue;
  const id = profile.samples[i];
  self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0));
}
const total = [...self.values()].reduce((a, b) => a + b, 0);

function area(url, name) {
  if (!url) return name.startsWith("(") ? name : "(native / V8 builtins)";
  const nm = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (nm) return nm[1];
  if (url.startsWith("node:")) return url;
  if (url.includes("/build/server/")) return "app (build/server)";
  return url.replace(/^file:\/\//, "");
}

const byArea = new Map();
const byFunction = new Map();
for (const [id, us] of self) {
  const { functionName, url, lineNumber } = nodes.get(id).callFrame;
  const name = functionName || "(anonymous)";
  const a = area(url, name);
  byArea.set(a, (byArea.get(a) ?? 0) + us);
  const key = `${name}  ${a}${url ? `:${lineNumber + 1}` : ""}`;
  byFunction.set(key, (byFunction.get(key) ?? 0) + us);
}
const print = (title, map) => {
  console.log(`\n${title}`);
  for (const [k, us] of [...map].sort((x, y) => y[1] - x[1]).slice(0, top)) {
    console.log(`${((us / total) * 100).toFixed(1).padStart(5)}%  ${(us / 1000).toFixed(0).padStart(7)} ms  ${k}`);
  }
};
console.log(`${file}: ${(total / 1e6).toFixed(1)} s of samples (profile length ${(at / 1e6).toFixed(1)} s)`);
print("self time by package / file", byArea);
print("self time by function", byFunction);

// Inclusive time: each sample counts once for every distinct function on its stack (idle excluded).
const parent = new Map();
for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
const inclusive = new Map();
let busy = 0;
for (const [id, us] of self) {
  if (nodes.get(id).callFrame.functionName === "(idle)") continue;
  busy += us;
  const seen = new Set();
  for (let n = id; n !== undefined; n = parent.get(n)) {
    const { functionName, url, lineNumber } = nodes.get(n).callFrame;
    const name = functionName || "(anonymous)";
    if (name === "(root)") continue;
    const key = `${name}  ${area(url, name)}${url ? `:${lineNumber + 1}` : ""}`;
    if (seen.has(key)) continue;
    seen.add(key);
    inclusive.set(key, (inclusive.get(key) ?? 0) + us);
  }
}
console.log(`\ninclusive time by function (share of the ${(busy / 1e6).toFixed(1)} s not idle)`);
for (const [k, us] of [...inclusive].sort((x, y) => y[1] - x[1]).slice(0, top)) {
  console.log(`${((us / busy) * 100).toFixed(1).padStart(5)}%  ${(us / 1000).toFixed(0).padStart(7)} ms  ${k}`);
}

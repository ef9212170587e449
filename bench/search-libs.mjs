// Compares FlexSearch, MiniSearch and Orama on chat-like messages (ADR 0014): index build rate, prefix
// query time and serialised size. Not part of `npm run bench`: the three libraries are installed in a
// scratch directory first, e.g. `npm install --prefix /tmp/libcmp minisearch flexsearch @orama/orama`,
// then `LIBS=/tmp/libcmp/node_modules node --expose-gc bench/search-libs.mjs [messages]`.
import { createRequire } from "node:module";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { chatCorpus, normalizeTerm } from "./lib/corpus.mjs";

const libs = process.env.LIBS ?? "/tmp/libcmp/node_modules";
const require = createRequire(path.join(libs, "x.js"));
const load = async (name) => import(pathToFileURL(require.resolve(name)).href);
const N = Number(process.argv[2] ?? 20_000);
const docs = chatCorpus(N);
const queries = ["encr", "meeting tomo", "deploy", "kafe", "rel", "budget review", "zz", "pass", "inv", "weekend plans"];

/** Heap held by what `build` returns (run with --expose-gc for a figure). */
function heldMb(build) {
  globalThis.gc?.();
  const before = process.memoryUsage().heapUsed;
  const out = build();
  globalThis.gc?.();
  return [(process.memoryUsage().heapUsed - before) / 2 ** 20, out];
}

function time(fn) {
  const t0 = performance.now();
  const out = fn();
  return [performance.now() - t0, out];
}
async function timeAsync(fn) {
  const t0 = performance.now();
  const out = await fn();
  return [performance.now() - t0, out];
}
function p95(list) {
  const s = [...list].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(s.length * 0.95))];
}
const row = (name, buildMs, qs, bytes, hits, heap) =>
  console.log(
    `${name.padEnd(11)} build ${Math.round((N / buildMs) * 1000)
      .toLocaleString("en-US")
      .padStart(
        8,
      )} msg/s | query p95 ${p95(qs).toFixed(2).padStart(6)} ms | serialised ${(bytes / 1e6).toFixed(2)} MB | heap ${heap.toFixed(0)} MB | hits ${hits}`,
  );

async function miniSearch() {
  const { default: MiniSearch } = await load("minisearch");
  const [heap] = heldMb(() => {
    const ms = new MiniSearch({ fields: ["text"], storeFields: [], processTerm: normalizeTerm });
    ms.addAll(docs);
    return ms;
  });
  const [buildMs, index] = time(() => {
    const ms = new MiniSearch({ fields: ["text"], storeFields: [], processTerm: normalizeTerm });
    ms.addAll(docs);
    return ms;
  });
  const qs = [];
  let hits = 0;
  for (let r = 0; r < 10; r++)
    for (const q of queries) {
      const [ms, found] = time(() => index.search(q, { prefix: true, combineWith: "AND" }));
      qs.push(ms);
      hits += found.length;
    }
  row("MiniSearch", buildMs, qs, JSON.stringify(index).length, hits / 10, heap);
}

async function flexSearch() {
  const FlexSearch = (await load("flexsearch")).default;
  const build = () => {
    const ix = new FlexSearch.Index({ tokenize: "forward", encoder: FlexSearch.Charset?.LatinBalance ?? "simple" });
    for (const d of docs) ix.add(d.id, d.text);
    return ix;
  };
  const [heap] = heldMb(build);
  const [buildMs, index] = time(build);
  const qs = [];
  let hits = 0;
  for (let r = 0; r < 10; r++)
    for (const q of queries) {
      const [ms, found] = time(() => index.search(q, { limit: 1000 }));
      qs.push(ms);
      hits += found.length;
    }
  let bytes = 0;
  await index.export((key, data) => {
    bytes += key.length + (data?.length ?? 0);
  });
  row("FlexSearch", buildMs, qs, bytes, hits / 10, heap);
}

async function orama() {
  const { create, insertMultiple, search, save } = await load("@orama/orama");
  globalThis.gc?.();
  const before = process.memoryUsage().heapUsed;
  const [buildMs, db] = await timeAsync(async () => {
    const db = create({ schema: { text: "string" } });
    await insertMultiple(
      db,
      docs.map((d) => ({ id: String(d.id), text: d.text })),
      5000,
    );
    return db;
  });
  globalThis.gc?.();
  const heap = (process.memoryUsage().heapUsed - before) / 2 ** 20;
  const qs = [];
  let hits = 0;
  for (let r = 0; r < 10; r++)
    for (const q of queries) {
      const [ms, found] = await timeAsync(async () => search(db, { term: q, limit: 1000 }));
      qs.push(ms);
      hits += found.count;
    }
  row("Orama", buildMs, qs, JSON.stringify(save(db)).length, hits / 10, heap);
}

console.log(`${N.toLocaleString("en-US")} messages`);
await miniSearch();
await flexSearch();
await orama();

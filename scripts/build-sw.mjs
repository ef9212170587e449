// Builds the service worker after `remix vite:build` (npm run build; ADR 25): esbuild bundles
// app/features/pwa/sw.ts with Workbox's modules, then Workbox's injectManifest writes
// build/client/sw.js with the precache list of build/client's static files (each with its revision):
// the styles, icons, fonts and the offline page; scripts are kept when first used (ADR 84).
import { rmSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import { getManifest, injectManifest } from "workbox-build";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const client = path.join(root, "build", "client");
const bundle = path.join(root, "build", "sw.bundle.js");

await build({
  entryPoints: [path.join(root, "app", "features", "pwa", "sw.ts")],
  tsconfig: path.join(root, "tsconfig.json"),
  bundle: true,
  format: "iife",
  target: "es2020",
  minify: true,
  // Workbox leaves its development logging out of production builds.
  define: { "process.env.NODE_ENV": '"production"' },
  outfile: bundle,
  logLevel: "warning",
});

// Static files only: scripts, styles, icons, fonts, the manifest and the offline page with its colours
// (theme.css). No page of the app is a file here (Remix renders them), and /api/ answers are never files.
const precache = {
  globDirectory: client,
  globPatterns: [
    "assets/**/*.{js,css,woff,woff2,ttf,svg,png,webp}",
    "*.{svg,png,webmanifest}",
    "icons/*.png",
    "offline.{html,css,js}",
    "theme.css",
  ],
  globIgnores: ["sw.js", "**/*.map"],
  // Vite's file names carry their content hash: no revision needed for them.
  dontCacheBustURLsMatching: /^assets\//,
  maximumFileSizeToCacheInBytes: 4 * 1024 * 1024,
};
// No script under assets/ is precached (ADR 84): the worker keeps each one when a page first loads it.
// Pages never come from the worker (the offline page answers for them when the network is away), so a
// precached script only ever served a page that was already open; a page keeps what it loaded.
precache.manifestTransforms = [
  (entries) => ({ manifest: entries.filter((entry) => !(entry.url.startsWith("assets/") && entry.url.endsWith(".js"))), warnings: [] }),
];

const { manifestEntries } = await getManifest(precache);
const urls = manifestEntries.map((entry) => entry.url);
if (!urls.includes("offline.html") || urls.some((url) => url.endsWith(".html") && url !== "offline.html")) {
  console.error("The service worker's precache list must hold offline.html and no other page.");
  process.exit(1);
}

const { count, size, warnings } = await injectManifest({ ...precache, swSrc: bundle, swDest: path.join(client, "sw.js") });
rmSync(bundle, { force: true });
for (const warning of warnings) console.warn(warning);
console.log(`build/client/sw.js: ${count} files precached (${(size / 1024).toFixed(0)} KiB)`);

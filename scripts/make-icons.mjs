// Renders the app's icons (public/icons/*.png) from public/favicon.svg in Chromium, once; the PNGs are
// committed. Run again after changing the favicon: node scripts/make-icons.mjs
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "@playwright/test";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const favicon = readFileSync(path.join(root, "public", "favicon.svg"), "utf8");
const BLUE = /fill="(#[0-9a-f]{6})"/i.exec(favicon)?.[1] ?? "#2563eb";

// "any": the favicon as it is (rounded corners, transparent outside them). "full": a full square of
// the favicon's blue with the lock scaled into the middle, for maskable icons (the lock stays inside
// the safe circle of 80 %) and for iOS, which fills transparency with black.
function page(kind, size) {
  const inner = favicon.replace(/^<svg[^>]*>/, "").replace(/<\/svg>\s*$/, "");
  const lock = inner.replace(/<rect width="32" height="32"[^>]*\/>/, "");
  const body =
    kind === "any"
      ? `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32" width="${size}" height="${size}">${inner}</svg>`
      : `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32" width="${size}" height="${size}">` +
        `<rect width="32" height="32" fill="${BLUE}"/><g transform="translate(16 16.5) scale(0.75) translate(-16 -16)">${lock}</g></svg>`;
  return `<!doctype html><html><body style="margin:0;background:transparent">${body}</body></html>`;
}

const icons = [
  { file: "icon-192.png", kind: "any", size: 192 },
  { file: "icon-512.png", kind: "any", size: 512 },
  { file: "icon-maskable-512.png", kind: "full", size: 512 },
  { file: "apple-touch-icon.png", kind: "full", size: 180 },
];

const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium", args: ["--no-sandbox"] });
try {
  for (const { file, kind, size } of icons) {
    const tab = await browser.newPage({ viewport: { width: size, height: size }, deviceScaleFactor: 1 });
    await tab.setContent(page(kind, size));
    await tab.locator("svg").screenshot({ path: path.join(root, "public", "icons", file), omitBackground: true });
    await tab.close();
    console.log(`public/icons/${file} (${size}x${size})`);
  }
} finally {
  await browser.close();
}

import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { pageTitle } from "~/ui/title";
import { securityHeaders } from "~/server/security-headers.server";

const root = path.resolve(__dirname, "..", "..");
const read = (file: string) => readFileSync(path.join(root, file));

/** A PNG's width and height, from its IHDR chunk. */
function pngSize(bytes: Buffer) {
  expect(bytes.subarray(1, 4).toString("latin1")).toBe("PNG");
  return `${bytes.readUInt32BE(16)}x${bytes.readUInt32BE(20)}`;
}

describe("the installable app", () => {
  it("puts the unread count in front of the tab's title, and only when there is one", () => {
    expect(pageTitle(0, null)).toBe("ChatCrypt");
    expect(pageTitle(1, null)).toBe("(1) ChatCrypt");
    expect(pageTitle(42, null)).toBe("(42) ChatCrypt");
    expect(pageTitle(-3, null)).toBe("ChatCrypt");
    expect(pageTitle(Number.NaN, null)).toBe("ChatCrypt");
    expect(pageTitle(2.7, null)).toBe("(2) ChatCrypt");
  });

  it("keeps both the count and the open conversation's name in the title (each used to replace the other)", () => {
    expect(pageTitle(0, "Alpha")).toBe("Alpha · ChatCrypt");
    expect(pageTitle(2, "Alpha")).toBe("(2) Alpha · ChatCrypt");
  });

  it("has a manifest whose icons exist at the sizes it says, a maskable one among them", () => {
    const manifest = JSON.parse(read("public/manifest.webmanifest").toString("utf8"));
    expect(manifest).toMatchObject({ name: "ChatCrypt", short_name: "ChatCrypt", start_url: "/", scope: "/", display: "standalone" });
    // The app's colours (public/theme.css: the header's panel and the page's background).
    const css = read("public/theme.css").toString("utf8");
    expect(css).toContain(`--panel: ${manifest.theme_color};`);
    expect(css).toContain(`--bg: ${manifest.background_color};`);
    for (const icon of manifest.icons as { src: string; sizes: string; type: string }[]) {
      expect(icon.type).toBe("image/png");
      expect(pngSize(read(path.join("public", icon.src))), icon.src).toBe(icon.sizes);
    }
    const sizes = (purpose: string) =>
      manifest.icons.filter((i: { purpose: string }) => i.purpose === purpose).map((i: { sizes: string }) => i.sizes);
    expect(sizes("any")).toEqual(["192x192", "512x512"]);
    expect(sizes("maskable")).toEqual(["512x512"]);
    expect(pngSize(read("public/icons/apple-touch-icon.png"))).toBe("180x180");
  });

  it("lets documents load the worker and the manifest from the app's own origin only", () => {
    const csp = securityHeaders("nonce", false)["Content-Security-Policy"].split("; ");
    expect(csp).toContain("worker-src 'self'");
    expect(csp).toContain("manifest-src 'self'");
  });
});

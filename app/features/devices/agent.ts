/**
 * The browser and system a user agent names, as the Devices list shows them ("Chrome on Linux"). The
 * web server sends PocketBase only this summary, never the user agent itself (pocketbase/devices.go
 * accepts letters, digits, spaces and dots, up to 48 characters).
 */
const BROWSERS: [RegExp, string][] = [
  [/\bEdg(e|A|iOS)?\//, "Edge"],
  [/\b(OPR|Opera)\//, "Opera"],
  [/\bSamsungBrowser\//, "Samsung Internet"],
  [/\b(Firefox|FxiOS)\//, "Firefox"],
  [/\b(HeadlessChrome|Chrome|Chromium|CriOS)\//, "Chrome"],
  [/\bVersion\/[\d.]+.*\bSafari\//, "Safari"],
];

const SYSTEMS: [RegExp, string][] = [
  [/\b(iPhone|iPad|iPod)\b/, "iOS"],
  [/\bAndroid\b/, "Android"],
  [/\bCrOS\b/, "ChromeOS"],
  [/\bWindows\b/, "Windows"],
  [/\bMac OS X\b|\bMacintosh\b/, "macOS"],
  [/\bLinux\b|\bX11\b/, "Linux"],
];

export const UNKNOWN_AGENT = "Unknown browser";

export function summarizeUserAgent(userAgent: string | null | undefined): string {
  const ua = (userAgent ?? "").slice(0, 1000);
  const browser = BROWSERS.find(([pattern]) => pattern.test(ua))?.[1];
  const system = SYSTEMS.find(([pattern]) => pattern.test(ua))?.[1];
  if (!browser && !system) return UNKNOWN_AGENT;
  return `${browser ?? "Unknown browser"} on ${system ?? "an unknown system"}`;
}

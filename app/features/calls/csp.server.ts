import { env } from "~/server/env.server";

/** What the page's Content-Security-Policy lets it connect to for calls: the LiveKit server's origin, as ws(s) and http(s). */
export function callConnectSources(): string[] {
  const url = env().LIVEKIT_URL;
  if (!url) return [];
  const origin = new URL(url.replace(/^ws/, "http")).origin;
  return [origin.replace(/^http/, "ws"), origin];
}

// Test toolkit for live streams: simulated pages from the bench's web client (cookie jar, CSRF token,
// JSON API, /api/events read as server-sent events) on the production web server (./web.ts).
import { randomBytes, randomUUID } from "node:crypto";
import { signUpListener } from "../../bench/lib/chat.mjs";
import { WebClient } from "../../bench/lib/web-client.mjs";
import type { LiveEvent } from "../../app/features/live/types";
import { startWeb, type WebServer } from "../e2e/stack";
import { fakePublicKey, randomVerifier, startPocketBase, type RunningPocketBase } from "./pocketbase";
import { ensureWebBuilt } from "./web";

export { ensureWebBuilt, startWeb, type WebServer };
export type { WebClient };

/**
 * A test PocketBase and one web server in front of it, for a test file (start in beforeAll, stop in
 * afterAll). `web` options: its session secret and environment (e.g. WEB_PROCESSES).
 */
export async function startLiveStack(web: { sessionSecret?: string; env?: Record<string, string> } = {}) {
  await ensureWebBuilt();
  const pb: RunningPocketBase = await startPocketBase();
  const server: WebServer = await startWeb(pb.url, web);
  return {
    pb,
    web: server,
    stop: async () => {
      await server.stop();
      await pb.stop();
    },
  };
}

const template = { ecdhPublicKey: fakePublicKey(), rsaPublicKey: fakePublicKey(), wrappedEcdhBytes: 900, wrappedRsaBytes: 900 };

/**
 * A signed-in page: a new account signed up through the web server (no client-side key work).
 * `cookies` are set in its jar first (e.g. a proxy's routing cookie).
 */
export async function signedInPage(baseUrl: string, cookies: Record<string, string> = {}): Promise<WebClient> {
  const tag = randomBytes(5).toString("hex");
  const page = new WebClient(baseUrl);
  for (const [name, value] of Object.entries(cookies)) page.cookies.set(name, value);
  return signUpListener(baseUrl, template, { username: `u_${tag}`, email: `u.${tag}@example.test` }, page);
}

export interface WebChannel {
  id: string;
  verifier: string;
}

export async function createWebChannel(owner: WebClient): Promise<WebChannel> {
  const channel = { id: randomUUID(), verifier: randomVerifier() };
  await owner.api("/api/channels", {
    ...channel,
    name: `channel ${channel.id.slice(0, 6)}`,
    ecdhPublicKey: fakePublicKey(),
    kdfIterations: 600_000,
  });
  return channel;
}

export async function joinWebChannel(member: WebClient, channel: WebChannel) {
  await member.api("/api/channels/join", { channelId: channel.id, verifier: channel.verifier, ecdhPublicKey: fakePublicKey() });
}

export async function postWebMessage(
  sender: WebClient,
  channelId: string,
  text: string,
): Promise<{ id: string; encryptedContent: string }> {
  const { message } = await sender.api(`/api/channels/${channelId}/messages`, { encryptedContent: text, senderPublicKey: "" });
  return message;
}

export interface Listening {
  events: LiveEvent[];
  /** The stream's response headers. */
  headers: Record<string, string | string[] | undefined>;
  ended: () => boolean;
  close: () => void;
  /** The texts (encryptedContent) of the messages received so far. */
  texts: () => string[];
}

/** Opens the page's live stream; resolves once "sync" arrived. */
export async function listen(page: WebClient, channelId: string | null = null): Promise<Listening> {
  const events: LiveEvent[] = [];
  let ended = false;
  const stream = await page.openEvents(
    channelId,
    (event: LiveEvent) => events.push(event),
    15_000,
    () => (ended = true),
  );
  return {
    events,
    headers: stream.headers,
    ended: () => ended,
    close: () => stream.close(),
    texts: () => events.flatMap((e) => (e.type === "message" ? [e.message.encryptedContent] : [])),
  };
}

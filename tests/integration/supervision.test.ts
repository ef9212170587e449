// `npm start` keeps the product up: each supervised part (PocketBase, the web server, the
// translation engine, Litestream) is killed with SIGKILL while a member keeps sending; the product
// answers again within 10 s, the other parts keep serving, and no acknowledged message is lost.

import { randomUUID } from "node:crypto";
import { statSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startProduct, waitUntil, type RunningProduct } from "./product";
import { Visitor } from "./web";

let product: RunningProduct;
let alice: Visitor;
let channelId: string;

beforeAll(async () => {
  product = await startProduct({ apertium: true });
  alice = new Visitor(product.url);
  await alice.signUp();
  channelId = (await alice.createChannel("Supervised")).id;
}, 300_000);

afterAll(async () => {
  await product?.stop();
});

const acknowledged = new Set<string>();
const answers: { status: number; message?: string }[] = [];

/** One send the way the page's outbox does it: the same clientId until it is acknowledged. */
async function sendOnce(clientId: string): Promise<boolean> {
  const answer = await alice
    .post(`/api/channels/${channelId}/messages`, { encryptedContent: Buffer.from(clientId).toString("base64"), clientId })
    .catch(() => null);
  answers.push({ status: answer?.status ?? 0, message: (answer?.json as { message?: string } | undefined)?.message });
  if (answer?.status !== 200) return false;
  acknowledged.add((answer.json as { message: { id: string } }).message.id);
  return true;
}

/** Sends in the background until stopped; each send is retried until acknowledged. */
function keepSending() {
  let stop = false;
  const done = (async () => {
    while (!stop) {
      const clientId = randomUUID();
      while (!stop && !(await sendOnce(clientId))) await new Promise((r) => setTimeout(r, 100));
      await new Promise((r) => setTimeout(r, 50));
    }
  })();
  return async () => {
    stop = true;
    await done;
  };
}

async function killAndWaitForRestart(name: string, answersAgain: () => Promise<boolean>) {
  const pid = product.pidOf(name);
  expect(pid, `${name} pid in the supervisor's log`).toBeGreaterThan(0);
  const killedAt = Date.now();
  process.kill(pid!, "SIGKILL");
  await waitUntil(async () => (product.pidOf(name) ?? pid) !== pid, 10_000, `${name} to be restarted`);
  const tookMs = await waitUntil(answersAgain, 10_000 - (Date.now() - killedAt), `the product to answer after ${name} was killed`);
  const total = Date.now() - killedAt;
  console.log(`${name}: killed with SIGKILL, answering again after ${total} ms`);
  expect(total).toBeLessThan(10_000);
  expect(product.logs()).toMatch(new RegExp(`supervisor: ${name} was killed by SIGKILL after [\\d.]+ s; restarting in`));
  return tookMs;
}

const sendWorks = () => sendOnce(randomUUID());

describe("npm start's defaults", () => {
  it("serves the web app at http://localhost, where passkeys work, and says so", async () => {
    const port = new URL(product.url).port;
    expect(product.logs()).toContain(`web app:               http://localhost:${port}   (passkeys work at this address)`);
    const page = await (await fetch(product.url)).text();
    expect(page).toContain(`<meta name="passkey-origin" content="http://localhost:${port}"/>`);
  });
});

describe("supervision", () => {
  it("restarts a killed PocketBase; meanwhile the web server answers 503 with a clear message", async () => {
    const stopSending = keepSending();
    await new Promise((r) => setTimeout(r, 500));
    await killAndWaitForRestart("pocketbase", sendWorks);
    await new Promise((r) => setTimeout(r, 500));
    await stopSending();
    // While PocketBase was away the web server said so; every answer was a success or a clear 503
    // (never a 500 or a misleading 4xx).
    expect(answers.some((a) => a.status === 503)).toBe(true);
    for (const answer of answers) {
      if (answer.status === 200) continue;
      expect(answer.status, JSON.stringify(answer)).toBe(503);
      expect(answer.message).toMatch(/starting up or restarting|unreachable/);
    }
  }, 30_000);

  it("restarts a killed web server while PocketBase keeps serving", async () => {
    const pbHealthy: boolean[] = [];
    const stopSending = keepSending();
    const watch = setInterval(() => {
      fetch(`${product.pbUrl}/api/health`).then(
        (r) => pbHealthy.push(r.ok),
        () => pbHealthy.push(false),
      );
    }, 100);
    await killAndWaitForRestart("web", sendWorks);
    clearInterval(watch);
    await stopSending();
    expect(pbHealthy.length).toBeGreaterThan(0);
    expect(pbHealthy.every(Boolean)).toBe(true);
  }, 30_000);

  it("restarts a killed translation engine while the chat keeps working", async () => {
    const pairs = async () => (await fetch(`${product.apertiumUrl}/listPairs`, { signal: AbortSignal.timeout(2_000) })).ok;
    await waitUntil(pairs, 30_000, "APy to answer");
    const stopSending = keepSending();
    await killAndWaitForRestart("apertium", pairs);
    await stopSending();
  }, 60_000);

  it("restarts a killed LiveKit server (calls) while the chat keeps working; its key pair stays in the data directory, mode 0600", async () => {
    const answers = async () => (await fetch(product.livekitUrl, { signal: AbortSignal.timeout(2_000) })).ok;
    await waitUntil(answers, 30_000, "LiveKit to answer");
    const keys = statSync(path.join(product.dataDir, ".livekit-keys.json"));
    expect(keys.mode & 0o777).toBe(0o600);
    expect(statSync(path.join(product.dataDir, ".livekit.yaml")).mode & 0o777).toBe(0o600);
    const stopSending = keepSending();
    await killAndWaitForRestart("livekit", answers);
    await stopSending();
    expect(statSync(path.join(product.dataDir, ".livekit-keys.json")).mtimeMs).toBe(keys.mtimeMs);
  }, 60_000);

  it("restarts a killed Litestream", async () => {
    await killAndWaitForRestart("litestream", sendWorks);
  }, 30_000);

  it("lost no acknowledged message", async () => {
    expect(acknowledged.size).toBeGreaterThan(10);
    const list = (await alice.send({ path: `/api/channels/${channelId}/messages?limit=500` })).json as { messages: { id: string }[] };
    const stored = new Set(list.messages.map((m) => m.id));
    const lost = [...acknowledged].filter((id) => !stored.has(id));
    console.log(`supervision: ${acknowledged.size} messages acknowledged, ${lost.length} lost, ${list.messages.length} stored`);
    expect(lost).toEqual([]);
    // and none stored twice: retries of one send carry the same clientId
    expect(list.messages.length).toBe(acknowledged.size);
  });

  it("Ctrl+C stops everything, PocketBase before Litestream (its last writes are replicated)", async () => {
    const took = await product.stop();
    expect(took).toBeLessThan(20_000);
    const logs = product.logs();
    // each stopped by the supervisor in its turn, none by the terminal's signal on its own
    for (const name of ["web", "pocketbase", "litestream", "livekit"]) expect(logs).toMatch(new RegExp(`supervisor: stopped ${name}`));
    expect(logs.indexOf("supervisor: stopped pocketbase")).toBeLessThan(logs.indexOf("supervisor: stopped litestream"));
  }, 40_000);
});

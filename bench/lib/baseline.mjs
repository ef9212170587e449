// The raw PocketBase baseline: the same messages created and subscribed to without the web server
// (bench/run.mjs).
import { drive } from "./capacity.mjs";
import { ivOf, postMessage } from "./chat.mjs";
import { CFG } from "./config.mjs";
import { request } from "./http.mjs";
import { sdkTopic, subscribeRaw } from "./pb-realtime.mjs";
import { cpuWindow } from "./stack.mjs";
import { pool, sleep, summary } from "./stats.mjs";
import { randomBytes } from "node:crypto";

export function fakeEnvelope() {
  return JSON.stringify({
    v: 1,
    iv: randomBytes(12).toString("base64url"),
    ct: randomBytes(65).toString("base64url"),
    sig: randomBytes(256).toString("base64url"),
  });
}

export const MESSAGE_FIELDS = "id,channel,sender,encrypted_content,created";
export const MEMBERS_TOPIC = "chatcrypt/messages";
export const STOCK_TOPIC = sdkTopic("messages", { fields: MESSAGE_FIELDS });
let baselineTopic = STOCK_TOPIC;

/** Does this PocketBase deliver new messages on the members-only topic? (one raw subscriber, one message) */
export async function probeTopic(c, stack, channel, sender, member) {
  member.pbToken ??= member.pocketBaseToken();
  let resolveSeen;
  const seen = new Promise((r) => (resolveSeen = r));
  const sub = await subscribeRaw(stack.pbUrl, member.pbToken, [MEMBERS_TOPIC], (_t, payload) => {
    if (payload?.record?.channel === channel.id) resolveSeen(true);
  });
  try {
    await postMessage(c, sender, channel, "topic probe");
    const found = await Promise.race([seen, sleep(2_000).then(() => false)]);
    baselineTopic = found ? MEMBERS_TOPIC : STOCK_TOPIC;
    return found;
  } finally {
    sub.close();
  }
}

/** A raw create; `via` makes the request (as WebClient.api). Resolves with the answer. */
export async function rawCreate(stack, token, channel, senderId, envelope, via = request) {
  const res = await via(`${stack.pbUrl}/api/collections/messages/records?fields=${MESSAGE_FIELDS}`, {
    method: "POST",
    headers: { Authorization: token },
    body: { channel: channel.id, sender: senderId, encrypted_content: envelope, sender_public_key: "x".repeat(40) },
  });
  if (res.status !== 200) throw new Error(`raw create answered ${res.status}`);
  return res;
}

/** The median of `n` raw creates one at a time (ms): the machine's create time. */
export async function rawCreateTime(stack, client, channel, n = 50) {
  client.pbToken ??= client.pocketBaseToken();
  const times = [];
  for (let i = 0; i < n; i++) {
    const t0 = performance.now();
    await rawCreate(stack, client.pbToken, channel, client.user.id, fakeEnvelope());
    times.push(performance.now() - t0);
  }
  return summary(times).p50;
}

export async function openRaw(stack, clients, onEvent) {
  const subs = await pool(clients, CFG.openConcurrency, (client, i) =>
    subscribeRaw(stack.pbUrl, client.pbToken, [baselineTopic], (_topic, payload, at) => onEvent(i, payload, at)),
  );
  return () => subs.forEach((s) => s.close());
}

/** One raw round into `round`, as webLatency (the creates made on the senders' thread, `poster`). */
export async function rawLatency(stack, pids, channel, clients, count, rate, round, poster) {
  for (const client of clients) client.pbToken ??= client.pocketBaseToken();
  const close = await openRaw(stack, clients, (i, payload, at) => {
    if (payload.action !== "create") return;
    const iv = ivOf(payload.record?.encrypted_content);
    if (iv) round.received(iv, i, at);
  });
  await sleep(1_000);
  const cpu = cpuWindow(pids);
  await drive(count, rate, async (i) => {
    const s = i % clients.length;
    const envelope = fakeEnvelope();
    round.sending(ivOf(envelope), performance.now(), s);
    try {
      const res = await rawCreate(stack, clients[s].pbToken, channel, clients[s].user.id, envelope, (url, options) =>
        poster.request(url, options),
      );
      round.post.push(res.ms);
    } catch {
      round.errors++;
    }
  });
  await round.drain();
  const usage = cpu();
  close();
  await sleep(500);
  return usage;
}

/** CPU windows (cpuWindow) of several rounds as one: each share weighted by its window's length. */
export function mergeCpu(windows) {
  const seconds = windows.reduce((sum, w) => sum + w.seconds, 0);
  const merge = (values) =>
    typeof values[0] === "number"
      ? values.reduce((sum, v, i) => sum + v * windows[i].seconds, 0) / seconds
      : Array.isArray(values[0])
        ? values[0].map((_, k) => merge(values.map((v) => v[k])))
        : Object.fromEntries(Object.keys(values[0]).map((key) => [key, merge(values.map((v) => v[key]))]));
  return { ...merge(windows), seconds };
}

/** Posts as fast as it can (CFG.fanoutInflight requests in flight) for `seconds`; sender is member 0. */

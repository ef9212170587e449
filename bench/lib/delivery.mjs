// Delivery through the web server, as pages see it: every message is keyed by its envelope's random IV,
// timed from the send to each member's live stream (bench/run.mjs).
import { drive } from "./capacity.mjs";
import { ivOf, warmProfiles } from "./chat.mjs";
import { CFG } from "./config.mjs";
import { cpuWindow } from "./stack.mjs";
import { pool, sleep, summary } from "./stats.mjs";

// Delivery tracking: every message is keyed by its envelope's random IV.

export class Round {
  constructor(receivers) {
    this.receivers = receivers; // number of clients that should receive each message (all but the sender)
    this.sent = new Map(); // iv -> { t0, sender, seen: Set }
    this.samples = [];
    this.arrivals = []; // send -> event parsed from the stream, for the verifying clients (before verify + decrypt)
    this.transport = []; // POST start (after encryption) -> event parsed from the stream: what the raw baseline measures
    this.decrypted = []; // send (before encryption) -> verified and decrypted, on the verifying clients
    this.crypto = []; // verify + decrypt time per delivery on the verifying clients
    this.encrypt = []; // encrypt + sign time per message on the sender
    this.post = [];
    this.errors = 0;
    this.bad = 0;
    this.lastAt = 0;
  }
  sending(iv, t0, sender) {
    this.sent.set(iv, { t0, p0: t0, sender, seen: new Set() });
  }
  posting(iv, p0) {
    const entry = this.sent.get(iv);
    if (entry) entry.p0 = p0;
  }
  received(iv, receiver, at) {
    const entry = this.sent.get(iv);
    if (!entry || entry.sender === receiver || entry.seen.has(receiver)) return;
    entry.seen.add(receiver);
    this.samples.push(at - entry.t0);
    this.lastAt = Math.max(this.lastAt, at);
  }
  get expected() {
    return this.sent.size * this.receivers;
  }
  async drain(ms = CFG.drainMs) {
    const deadline = performance.now() + ms;
    while (this.samples.length < this.expected && performance.now() < deadline) await sleep(25);
  }
  /** Latency summary; each lost delivery counts as an infinitely late one. */
  result() {
    const lost = Math.max(0, this.expected - this.samples.length);
    const all = lost ? [...this.samples, ...Array(lost).fill(Infinity)] : this.samples;
    return {
      ...summary(all),
      n: this.samples.length,
      expected: this.expected,
      lost,
      errors: this.errors,
      bad: this.bad,
      messages: this.sent.size,
      post: summary(this.post),
      arrival: summary(this.arrivals),
      transport: summary(this.transport),
      decrypted: summary(this.decrypted),
      verifyDecrypt: summary(this.crypto),
      encrypt: summary(this.encrypt),
    };
  }
}

/**
 * The live handler of one simulated page: with `verify` (bench/lib/verifier.mjs: message ->
 * { text, at }), it verifies and decrypts each message; without, it times the receipt.
 */
export function liveHandler(client, index, round, verify) {
  return (event, at) => {
    if (event.type !== "message") return;
    const iv = ivOf(event.message.encryptedContent);
    if (!iv || !round.sent.has(iv)) return;
    const entry = round.sent.get(iv);
    if (entry.sender !== index) {
      round.arrivals.push(at - entry.t0);
      round.transport.push(at - entry.p0);
    }
    if (!verify) return round.received(iv, index, at);
    verify(event.message).then(
      ({ text, at: ready }) => {
        if (!text.startsWith("bench ")) round.bad++;
        if (entry.sender !== index) {
          round.crypto.push(ready - at);
          round.decrypted.push(ready - entry.t0);
        }
        round.received(iv, index, ready);
      },
      () => round.bad++,
    );
  };
}

export async function openStreams(clients, channel, fromIndex = 0, budgetMs = CFG.levelOpenBudgetMs) {
  const deadline = Date.now() + budgetMs;
  let failed = 0;
  await pool(
    clients.slice(fromIndex),
    CFG.openConcurrency,
    async (client) => {
      if (client.live) return;
      try {
        client.live = await client.openEvents(channel.id, (event, at) => client.onLive?.(event, at));
      } catch {
        failed++;
      }
    },
    deadline,
  );
  return { open: clients.filter((cl) => cl.live).length, failed };
}

export function closeStreams(clients) {
  for (const client of clients) {
    client.live?.close();
    client.live = null;
    client.onLive = null;
  }
}

/**
 * One message, encrypted and sent as a page does; with `poster` (bench/lib/poster.mjs) the POST is made
 * and timed on the senders' own thread.
 */
export async function sendBench(c, round, sender, senderIndex, channel, i, poster) {
  const t0 = performance.now();
  try {
    const envelope = await c.encryptMessage({
      key: channel.key,
      channelId: channel.id,
      senderId: sender.user.id,
      plaintext: `bench ${i} ${"x".repeat(40)}`,
      signingKey: sender.keys.rsaPrivateKey,
    });
    const iv = JSON.parse(envelope).iv;
    round.sending(iv, t0, senderIndex);
    const p0 = performance.now();
    round.posting?.(iv, p0);
    round.encrypt.push(p0 - t0);
    let ms;
    const via = poster ? (url, options) => poster.request(url, options).then((res) => ((ms = res.ms), res)) : undefined;
    await sender.api(
      `/api/channels/${channel.id}/messages`,
      { encryptedContent: envelope, senderPublicKey: sender.user.ecdhPublicKey },
      { via },
    );
    const took = ms ?? performance.now() - p0;
    round.post.push(took);
    round.posted?.(p0, took);
  } catch {
    round.errors++;
  }
}

/**
 * One web round into `round` (its samples add up over rounds); returns the round's CPU window. The
 * first clients verify and decrypt on their own threads (`verifiers`, bench/lib/verifier.mjs); the
 * senders' POSTs are made on theirs (`poster`, bench/lib/poster.mjs).
 */
export async function webLatency(c, stack, pids, channel, clients, count, rate, round, verifiers, poster) {
  clients.forEach((client, i) => (client.onLive = liveHandler(client, i, round, verifiers[i]?.forPage(c, client, channel))));
  const { open } = await openStreams(clients, channel);
  if (open < clients.length) throw new Error(`only ${open} of ${clients.length} live streams opened`);
  // The page has its senders' profiles after loading the channel's history.
  await pool(clients, 8, (client) =>
    warmProfiles(
      c,
      client,
      clients.map((x) => x.user.id),
    ),
  );
  await sleep(1_000);
  const cpu = cpuWindow(pids);
  await drive(count, rate, (i) => sendBench(c, round, clients[i % clients.length], i % clients.length, channel, i, poster));
  await round.drain();
  const usage = cpu();
  closeStreams(clients);
  await sleep(500);
  return usage;
}

/** A random envelope of the same shape and size as a real one (the baseline does no crypto). */

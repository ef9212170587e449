// Web Push (BENCH_PHASES=push, part of `npm run bench`; run with vite-node): our PocketBase sending to
// the push service stand-in on loopback (tests/integration/push-service.ts, which checks VAPID and
// decrypts each RFC 8291 payload as a real push service would, on the same two cores: the figures
// include its work). Measured:
// - delay: a message's create sent -> its push received, one recipient, 30 messages (p50, p95);
// - throughput: one message to a recipient with K subscribed browsers (K pushes, each encrypted for
//   its browser), K ramped 50, 100, 200, ... until a round loses pushes or takes over 60 s; pushes per
//   second = K / (last push received - create sent).
// Writes docs/benchmarks-push.md.
import { writeFileSync } from "node:fs";
import path from "node:path";
import { percentile } from "./lib/stats.mjs";
import {
  createChannel,
  fakeCiphertext,
  fakePublicKey,
  joinChannel,
  repoRoot,
  signUpUser,
  startPocketBase,
  type TestUser,
} from "../tests/integration/pocketbase";
import { startPushService } from "../tests/integration/push-service";

const QUICK = process.env.BENCH_QUICK === "1";
const DELAY_MESSAGES = QUICK ? 10 : 30;
const MAX_K = QUICK ? 400 : 102_400;
const ROUND_LIMIT_MS = 60_000;
const log = (line: string) => console.log(`[push] ${line}`);

const service = await startPushService();
const pb = await startPocketBase({ env: { PUSH_ALLOW_HOSTS: service.host } });
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function recipientIn(channels: number) {
  const [alice, bob] = await Promise.all([signUpUser(pb.url), signUpUser(pb.url)]);
  const rooms = [];
  for (let i = 0; i < channels; i++) {
    const room = await createChannel(alice);
    await joinChannel(bob, room);
    rooms.push(room.id);
  }
  await bob.pb
    .collection("notify_rules")
    .create({ owner: bob.id, rules: { conversations: Object.fromEntries(rooms.map((r) => [r, { level: "all" }])) } });
  return { alice, bob, rooms };
}

async function subscribe(user: TestUser, count: number) {
  const ids: string[] = [];
  for (let i = 0; i < count; i += 50) {
    const batch = Array.from({ length: Math.min(50, count - i) }, () => service.subscribe());
    await Promise.all(
      batch.map((s) => user.pb.collection("push_subscriptions").create({ owner: user.id, endpoint: s.endpoint, ...s.keys })),
    );
    ids.push(...batch.map((s) => s.id));
  }
  return new Set(ids);
}

const post = (from: TestUser, channel: string) =>
  from.pb
    .collection("messages")
    .create({ channel, sender: from.id, encrypted_content: fakeCiphertext(300), sender_public_key: fakePublicKey() });

/** The pushes for these subscriptions received from index `from` of the service's list on, once `want` arrived or the limit passed. */
async function waitFor(ids: Set<string>, from: number, want: number, limitMs: number) {
  const end = Date.now() + limitMs;
  const got: typeof service.received = [];
  let seen = from;
  for (;;) {
    for (; seen < service.received.length; seen++) if (ids.has(service.received[seen].subscription)) got.push(service.received[seen]);
    if (got.length >= want || Date.now() > end) return got;
    await sleep(10);
  }
}

// delay: one subscription, one message per channel (a conversation gets one push every 5 s at most)
const single = await recipientIn(DELAY_MESSAGES);
const one = await subscribe(single.bob, 1);
const delays: number[] = [];
for (const room of single.rooms) {
  const [from, start] = [service.received.length, Date.now()];
  await post(single.alice, room);
  const [push] = await waitFor(one, from, 1, 10_000);
  if (push) delays.push(push.at - start);
}
log(`delay create -> push: p50 ${percentile(delays, 50)} ms, p95 ${percentile(delays, 95)} ms (${delays.length}/${DELAY_MESSAGES})`);

// throughput: ramp the number of browsers one message goes to
const rounds: { k: number; ms: number; got: number; perSecond: number }[] = [];
const ramp = await recipientIn(Math.round(Math.log2(MAX_K / 50)) + 1);
const subscribed = new Set<string>();
let k = 50;
for (const room of ramp.rooms) {
  for (const id of await subscribe(ramp.bob, k - subscribed.size)) subscribed.add(id);
  const [from, start] = [service.received.length, Date.now()];
  await post(ramp.alice, room);
  const got = await waitFor(subscribed, from, k, ROUND_LIMIT_MS);
  const ms = got.length ? Math.max(...got.map((p) => p.at)) - start : ROUND_LIMIT_MS;
  const perSecond = Math.round((got.length / Math.max(ms, 1)) * 1000);
  rounds.push({ k, ms, got: got.length, perSecond });
  log(`${k} browsers: ${got.length} pushes in ${ms} ms = ${perSecond}/s`);
  if (got.length < k || ms >= ROUND_LIMIT_MS) break;
  k *= 2;
}
const best = Math.max(...rounds.map((r) => r.perSecond));
const broke = rounds.find((r) => r.got < r.k || r.ms >= ROUND_LIMIT_MS);

const report = `# Web Push figures

Written by \`bench/push.ts\` (\`npm run bench\`, BENCH_PHASES=push) on ${new Date().toISOString().slice(0, 10)}: our PocketBase
sending to a push service stand-in on loopback that verifies each VAPID JWT and decrypts each RFC 8291
payload (on the same 2 cores: its work is counted against ours).

- A message's create sent -> its push received (one browser, ${delays.length} messages):
  p50 **${percentile(delays, 50)} ms**, p95 **${percentile(delays, 95)} ms**.
- One message to one recipient with K browsers (K pushes, each encrypted for its browser and sent on its own connection, 8 at a time):

| browsers | pushes received | time | pushes per second |
|---|---|---|---|
${rounds.map((r) => `| ${r.k} | ${r.got} | ${r.ms} ms | ${r.perSecond} |`).join("\n")}

Best: **${best} pushes per second**. ${broke ? `The ramp stopped at ${broke.k} browsers (${broke.got} received${broke.ms >= ROUND_LIMIT_MS ? ", over 60 s" : ""}).` : `The ramp reached its last step (${rounds.at(-1)?.k}) without losing a push.`}
`;
if (!QUICK) writeFileSync(path.join(repoRoot, "docs", "benchmarks-push.md"), report);
console.log(report);
await pb.stop();
await service.stop();
process.exit(0);

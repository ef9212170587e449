// Fan-out throughput: one sender posting as fast as it can to a channel of many members, through the
// web server and against raw PocketBase (bench/run.mjs).
import { fakeEnvelope, openRaw, rawCreate } from "./baseline.mjs";
import { ivOf, warmProfiles } from "./chat.mjs";
import { CFG } from "./config.mjs";
import { Round, closeStreams, liveHandler, openStreams, sendBench } from "./delivery.mjs";
import { inThread } from "./verifier.mjs";
import { cpuWindow } from "./stack.mjs";
import { pool, sleep } from "./stats.mjs";

export async function fanoutLoop(seconds, postOne) {
  const end = performance.now() + seconds * 1000;
  let posts = 0;
  const start = performance.now();
  await Promise.all(
    Array.from({ length: CFG.fanoutInflight }, async () => {
      while (performance.now() < end) {
        await postOne(posts++);
      }
    }),
  );
  return { posts, start };
}

export function fanoutResult(round, start, posts, recipients) {
  const r = round.result();
  const span = Math.max(1, (round.lastAt || performance.now()) - start) / 1000;
  return {
    posts,
    recipients,
    deliveries: r.n,
    lost: r.lost,
    errors: r.errors,
    seconds: span,
    deliveriesPerSecond: r.n / span,
    postsPerSecond: posts / span,
    fullyDeliveredPerSecond: [...round.sent.values()].filter((e) => e.seen.size >= recipients).length / span,
    latency: { p50: r.p50, p99: r.p99 },
    post: r.post,
  };
}

export async function rawFanout(stack, pids, channel, members, seconds) {
  for (const client of members) client.pbToken ??= client.pocketBaseToken();
  const round = new Round(members.length - 1);
  const close = await openRaw(stack, members, (i, payload, at) => {
    if (payload.action !== "create") return;
    const iv = ivOf(payload.record?.encrypted_content);
    if (iv) round.received(iv, i, at);
  });
  await sleep(1_000);
  const cpu = cpuWindow(pids);
  const { posts, start } = await fanoutLoop(seconds, async () => {
    const envelope = fakeEnvelope();
    round.sending(ivOf(envelope), performance.now(), 0);
    const p0 = performance.now();
    try {
      await rawCreate(stack, members[0].pbToken, channel, members[0].user.id, envelope);
      round.post.push(performance.now() - p0);
    } catch {
      round.errors++;
    }
  });
  await round.drain();
  const usage = cpu();
  close();
  await sleep(500);
  return { ...fanoutResult(round, start, posts, members.length - 1), cpu: usage };
}

export async function webFanout(c, stack, pids, channel, members, seconds) {
  const round = new Round(members.length - 1);
  members.forEach(
    (client, i) => (client.onLive = liveHandler(client, i, round, i > 0 && i <= CFG.fanoutVerifying ? inThread(c, client, channel) : null)),
  );
  const { open } = await openStreams(members, channel);
  if (open < members.length) throw new Error(`only ${open} of ${members.length} live streams opened`);
  await pool(members, 8, (client) => warmProfiles(c, client, [members[0].user.id]));
  await sleep(1_000);
  const cpu = cpuWindow(pids);
  const { posts, start } = await fanoutLoop(seconds, (i) => sendBench(c, round, members[0], 0, channel, i));
  await round.drain();
  const usage = cpu();
  closeStreams(members);
  await sleep(500);
  return { ...fanoutResult(round, start, posts, members.length - 1), cpu: usage };
}

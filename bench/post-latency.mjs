// A focused measurement of one request path: POST /api/channels/:id/messages through the web server
// against the same create sent straight to PocketBase, one request at a time (no concurrency, so
// the figures are per-request latency and CPU), and the page (GET /) for comparison.
// Usage: node bench/post-latency.mjs [requests] [raw,post,page] [pause between requests, ms]
// (BENCH_WEB_PROCESSES: the web tier's WEB_PROCESSES, default 1; BENCH_LISTENERS: pages listening meanwhile).
// BENCH_WEB_CPU_PROFILE=<dir> writes the web server's CPU profile (bench/profile-summary.mjs).
import { randomBytes, randomUUID } from "node:crypto";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { signUpListener } from "./lib/chat.mjs";
import { request } from "./lib/http.mjs";
import { cpuWindow, startStack } from "./lib/stack.mjs";
import { MEMBERS_TOPIC } from "./lib/baseline.mjs";
import { subscribeRaw } from "./lib/pb-realtime.mjs";
import { percentile } from "./lib/stats.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
process.chdir(root);
const count = Number(process.argv[2] ?? 1000);
const only = new Set((process.argv[3] ?? "raw,post,page").split(","));
const pauseMs = Number(process.argv[4] ?? 0);
const stack = await startStack(root, { webProcesses: Number(process.env.BENCH_WEB_PROCESSES ?? 1) });
try {
  const key = randomBytes(120).toString("base64");
  const template = { ecdhPublicKey: key, rsaPublicKey: key, wrappedEcdhBytes: 900, wrappedRsaBytes: 900 };
  const tag = randomBytes(4).toString("hex");
  const alice = await signUpListener(stack.webUrl, template, { username: `p_${tag}`, email: `p.${tag}@example.test` });
  const channel = { id: randomUUID(), verifier: randomBytes(32).toString("base64url") };
  await alice.api("/api/channels", { ...channel, name: "post latency", ecdhPublicKey: key, kdfIterations: 600_000 });
  const envelope = JSON.stringify({
    v: 1,
    iv: "x".repeat(16),
    ct: randomBytes(65).toString("base64url"),
    sig: randomBytes(256).toString("base64url"),
  });
  const token = alice.pocketBaseToken();
  const pids = { pocketbase: stack.pb.pid, web: stack.webPids, bench: process.pid };

  // BENCH_LISTENERS=n: n pages listen to the channel while it is measured (the web's event streams
  // for the web's POST, PocketBase's realtime for the raw create), as in the latency phase.
  const listeners = Number(process.env.BENCH_LISTENERS ?? 0);
  const run = async (label, one) => {
    if (!only.has(label.split(":")[0])) return;
    const raw = label.startsWith("raw");
    const streams = [];
    const arrived = new Map(); // message id -> when its event first reached a listener
    const heard = (id, at) => id && !arrived.has(id) && arrived.set(id, at);
    for (let i = 0; i < listeners; i++)
      streams.push(
        raw
          ? await subscribeRaw(stack.pbUrl, token, [MEMBERS_TOPIC], (_t, payload, at) => heard(payload?.record?.id, at))
          : await alice.openEvents(channel.id, (event, at) => event.type === "message" && heard(event.message.id, at)),
      );
    for (let i = 0; i < 50; i++) await one(); // warm-up
    const times = [];
    const deliveries = [];
    const cpu = cpuWindow(pids);
    for (let i = 0; i < count; i++) {
      if (pauseMs) await new Promise((r) => setTimeout(r, pauseMs));
      const t0 = performance.now();
      const id = await one();
      times.push(performance.now() - t0);
      if (listeners) {
        while (!arrived.has(id)) await new Promise((r) => setTimeout(r, 1));
        deliveries.push(arrived.get(id) - t0);
      }
    }
    const u = cpu();
    for (const s of streams) s.close();
    const perRequest = (pct) => ((pct / 100) * u.seconds * 1000) / count;
    const delivery = listeners ? `; to the first listener p50 ${percentile(deliveries, 50).toFixed(2)} ms` : "";
    console.log(
      `${label}: p50 ${percentile(times, 50).toFixed(2)} ms, p90 ${percentile(times, 90).toFixed(2)} ms; CPU per request PocketBase ${perRequest(u.pocketbase).toFixed(2)} ms, web ${perRequest(u.web).toFixed(2)} ms (kernel ${perRequest(u.kernel.web).toFixed(2)}), bench ${perRequest(u.bench).toFixed(2)} ms; other ${u.other.toFixed(0)}%${delivery}`,
    );
  };
  await run("raw: PocketBase create", async () => {
    const res = await request(`${stack.pbUrl}/api/collections/messages/records?fields=id,channel,sender,encrypted_content,created`, {
      method: "POST",
      headers: { Authorization: token },
      body: { channel: channel.id, sender: alice.user.id, encrypted_content: envelope, sender_public_key: key },
    });
    if (res.status !== 200) throw new Error(`raw create ${res.status}`);
    return JSON.parse(res.text).id;
  });
  await run("post: POST through the web server", async () => {
    const { message } = await alice.api(`/api/channels/${channel.id}/messages`, { encryptedContent: envelope, senderPublicKey: key });
    return message.id;
  });
  await run("page: GET / through the web server", () => alice.loadPage());
} finally {
  await stack.stop();
}

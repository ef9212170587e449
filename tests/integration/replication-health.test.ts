// A hung or stopped replication is logged by the supervisor and shown in the admin console's Health
// section (scripts/lib/replication-health.mjs, pb_hooks/health.pb.js, GET /api/admin/health): the
// product as `npm start` runs it; Litestream is frozen (SIGSTOP, a hang) while a member keeps
// writing, then let go; then killed.

import { rm } from "node:fs/promises";
import { randomBytes } from "node:crypto";
import { afterAll, describe, expect, it } from "vitest";
import { startProduct, type RunningProduct } from "./product";
import { Visitor } from "./web";
import type { HealthStatus } from "../../app/features/health/health";
import { LAG_LIMIT_MS } from "../../scripts/lib/replication-health.mjs";

let product: RunningProduct | undefined;
let frozen: number | undefined;

afterAll(async () => {
  if (frozen) process.kill(frozen, "SIGCONT");
  await product?.stop();
  if (product)
    await Promise.all([rm(product.dataDir, { recursive: true, force: true }), rm(product.replicaDir, { recursive: true, force: true })]);
});

async function health(owner: Visitor): Promise<HealthStatus["replication"]> {
  const answer = await owner.send({ path: "/api/admin/health" });
  expect(answer.status, answer.text).toBe(200);
  return (answer.json as HealthStatus).replication;
}

/** Sends messages until the health view says `state` (each write changes the database). */
async function writeUntil(owner: Visitor, channelId: string, state: string, timeoutMs: number) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const sent = await owner.post(`/api/channels/${channelId}/messages`, { encryptedContent: randomBytes(48).toString("base64") });
    expect([200, 429]).toContain(sent.status);
    const now = await health(owner);
    if (now.state === state) return now;
    if (Date.now() > deadline) throw new Error(`the health view still says ${now.state}: ${now.message}`);
    await new Promise((r) => setTimeout(r, 1_000));
  }
}

describe("replication's health", () => {
  it("a hung Litestream is logged and shown as stopped in the Health view; it says so again once it works", async () => {
    product = await startProduct();
    const owner = new Visitor(product.url);
    await owner.signUp(); // the first account: the workspace's owner
    const channelId = (await owner.createChannel("Watched")).id;

    const before = await writeUntil(owner, channelId, "ok", 30_000);
    expect(before.message).toBe("Replication is up to date.");

    frozen = product.pidOf("litestream");
    expect(frozen).toBeTruthy();
    process.kill(frozen!, "SIGSTOP");
    const frozenAt = Date.now();
    // the first change the replica does not take: made by the time this write is answered
    expect((await owner.post(`/api/channels/${channelId}/messages`, { encryptedContent: randomBytes(48).toString("base64") })).status).toBe(
      200,
    );
    const changedBy = Date.now();
    const hung = await writeUntil(owner, channelId, "behind", 60_000);
    // docs/operating.md: said within 15 s (on a busy machine) of the first change the replica does not take (10 s waiting,
    // and a check every 2 s); the open console shows it at its next refresh (5 s). Measured at the
    // supervisor's check that said it, not when this loop, a second apart and slowed by a busy machine,
    // read it; and from that change, not from the replica's last write, which may be a second or two
    // older (from that write it once measured 17.1 s on a busy machine)
    const checkedAt = Date.parse(hung.checkedAt ?? "");
    const sinceReplicatedMs = checkedAt - Date.parse(hung.replicatedAt ?? "");
    const sinceChangedMs = checkedAt - changedBy;
    console.log(
      `replication health: Litestream frozen; the Health view said "behind" ${((Date.now() - frozenAt) / 1000).toFixed(1)} s later, ` +
        `${(sinceChangedMs / 1000).toFixed(1)} s after the first change it did not take, ` +
        `${(sinceReplicatedMs / 1000).toFixed(1)} s after the replica's last write`,
    );
    expect(sinceReplicatedMs).toBeGreaterThan(LAG_LIMIT_MS);
    expect(sinceChangedMs).toBeLessThan(LAG_LIMIT_MS + 5_000);
    expect(hung.message).toMatch(/^Replication has stopped: the database has changed since the replica was last written, \d+ s ago\./);
    expect(product.logs()).toMatch(/supervisor: Replication has stopped: the database has changed since the replica was last written/);
    // a member sees nothing of it
    const member = new Visitor(product.url);
    await member.signUp();
    expect((await member.send({ path: "/api/admin/health" })).status).toBe(403);

    process.kill(frozen!, "SIGCONT");
    frozen = undefined;
    await writeUntil(owner, channelId, "ok", 60_000);
    // (the supervisor logs it before it writes the status the view reads; its output reaches this
    // process through a pipe, a moment later on a busy machine)
    await expect.poll(() => product!.logs(), { timeout: 10_000 }).toMatch(/supervisor: replication is up to date again/);

    // a Litestream that dies is restarted; while it is down, the view says so
    process.kill(product.pidOf("litestream")!, "SIGKILL");
    await expect.poll(() => product!.logs(), { timeout: 10_000 }).toMatch(/supervisor: Replication has stopped: Litestream is not running/);
    await writeUntil(owner, channelId, "ok", 60_000);
  }, 300_000);
});

// Continuous replication: while a member keeps sending, the whole product dies and its data
// directory is destroyed (a lost disk). Restored from the replica that `npm start` keeps, every
// message acknowledged more than the replication interval (1 s) before the loss is back, and so is
// an uploaded file. Prints the recovery point and the restore time.

import { execFile } from "node:child_process";
import { randomBytes } from "node:crypto";
import { rm } from "node:fs/promises";
import { promisify } from "node:util";
import PocketBase from "pocketbase";
import { afterAll, describe, expect, it } from "vitest";
import { repoRoot } from "./pocketbase";
import { startProduct, type RunningProduct } from "./product";
import { Visitor } from "./web";

const execFileAsync = promisify(execFile);
const TARGET_MS = 1_000;

let product: RunningProduct | undefined;

afterAll(async () => {
  await product?.stop();
  if (product)
    await Promise.all([rm(product.dataDir, { recursive: true, force: true }), rm(product.replicaDir, { recursive: true, force: true })]);
});

describe("continuous replication", () => {
  it("restores every message acknowledged more than 1 s before the data directory was lost", async () => {
    product = await startProduct();
    const alice = new Visitor(product.url);
    const account = await alice.signUp();
    const channelId = (await alice.createChannel("Replicated")).id;

    // An uploaded (encrypted) file: it lives in pb_data/storage, outside the database.
    const pb = new PocketBase(product.pbUrl);
    pb.autoCancellation(false);
    await pb.collection("users").authWithPassword(account.email, account.loginSecret);
    const first = (await alice.post(`/api/channels/${channelId}/messages`, { encryptedContent: "ZmlsZQ==" })).json as {
      message: { id: string };
    };
    const fileBytes = randomBytes(4096);
    const form = new FormData();
    form.set("message", first.message.id);
    form.set("channel", channelId);
    form.set("uploaded_by", alice.userId);
    form.set("file_name", "bmFtZQ");
    form.set("file_size", String(fileBytes.length - 28));
    form.set("file_type", "application/octet-stream");
    form.set("storage_path", `${alice.userId}/${channelId}/f.bin`);
    form.set("file", new Blob([fileBytes]), "encrypted.bin");
    const attachment = await pb.collection("file_attachments").create(form);
    await new Promise((r) => setTimeout(r, 1_500));

    // Keep sending for five seconds (within PocketBase's limit of 20 creates in 5 s), then lose
    // everything at once.
    const acknowledgedAt = new Map<string, number>();
    const until = Date.now() + 5_000;
    for (;;) {
      const answer = await alice.post(`/api/channels/${channelId}/messages`, {
        encryptedContent: randomBytes(48).toString("base64"),
        clientId: crypto.randomUUID(),
      });
      if (answer.status !== 429) {
        expect(answer.status, answer.text).toBe(200);
        acknowledgedAt.set((answer.json as { message: { id: string } }).message.id, Date.now());
      }
      if (Date.now() >= until && answer.status === 200) break; // the loss comes right after an acknowledgement
      await new Promise((r) => setTimeout(r, 230));
    }
    const lostAt = Date.now();
    await product.killAll();
    await rm(product.dataDir, { recursive: true, force: true });

    // Restore into a new, empty data directory, then start the product on it.
    const restoreStarted = Date.now();
    const { stdout } = await execFileAsync("node", ["scripts/replica.mjs", "restore"], {
      cwd: repoRoot,
      env: { ...process.env, PB_DATA: product.dataDir, REPLICA_DIR: product.replicaDir },
    });
    const restoreMs = Date.now() - restoreStarted;
    expect(stdout).toMatch(/Restored .*data\.db/);
    const { dataDir, replicaDir } = product;
    product = await startProduct({ dataDir, replicaDir });

    // The old session cookie still works: the session secret came back with the other files.
    const again = new Visitor(product.url);
    again.cookies = new Map(alice.cookies);
    again.csrfToken = alice.csrfToken;
    const list = await again.send({ path: `/api/channels/${channelId}/messages?limit=500` });
    expect(list.status, list.text).toBe(200);
    const stored = new Set((list.json as { messages: { id: string }[] }).messages.map((m) => m.id));

    const lost = [...acknowledgedAt].filter(([id]) => !stored.has(id));
    const newestAck = Math.max(...acknowledgedAt.values());
    const recoveryPointMs = lost.length ? lostAt - Math.min(...lost.map(([, at]) => at)) : lostAt - newestAck;
    console.log(
      `replication: ${acknowledgedAt.size} messages acknowledged, ${acknowledgedAt.size - lost.length} restored, ${lost.length} lost; ` +
        `recovery point ${recoveryPointMs} ms before the loss (target ≤ ${TARGET_MS} ms); restore took ${restoreMs} ms`,
    );
    expect(acknowledgedAt.size).toBeGreaterThan(15);
    expect(lost.filter(([, at]) => at < lostAt - TARGET_MS)).toEqual([]);
    expect(recoveryPointMs).toBeLessThanOrEqual(TARGET_MS);
    expect(stored.has(first.message.id)).toBe(true);

    // The uploaded file is back, byte for byte.
    const restoredPb = new PocketBase(product.pbUrl);
    await restoredPb.collection("users").authWithPassword(account.email, account.loginSecret);
    const token = await restoredPb.files.getToken();
    const file = await fetch(restoredPb.files.getURL(attachment, attachment.file as string, { token }));
    expect(file.status).toBe(200);
    expect(Buffer.from(await file.arrayBuffer()).equals(fileBytes)).toBe(true);
  }, 300_000);
});

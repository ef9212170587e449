import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { LiveSink, RelayHub } from "../../app/features/live/relay.server";

// A send is answered on its message's relay event when that comes before PocketBase's answer to the
// create (ADR 42). A stand-in for PocketBase on loopback holds the create's answer until the test lets
// it go, and sends relay events when the test says (the real PocketBase's order, the event first, is
// what bench/post-latency.mjs times).

let server: http.Server;
let relayStream: http.ServerResponse | null = null;
const held: { body: Record<string, unknown>; answer: (status: number, data: unknown) => void }[] = [];
/** Whether the stand-in lists the sender as a member of the conversation. */
let member = false;

const sendRelay = (kind: string, data: unknown) => relayStream?.write(`event: ${kind}\ndata: ${JSON.stringify(data)}\n\n`);
const until = async (check: () => boolean) => {
  for (let i = 0; i < 200 && !check(); i++) await new Promise((r) => setTimeout(r, 10));
  expect(check()).toBe(true);
};

let hub: RelayHub;
let createMessage: typeof import("../../app/features/messages/messages.server").createMessage;
let waitingSends: () => number;
const stream = { userId: "alice", channelId: "channel1", tokenHash: "hash-a", write() {}, close() {} } satisfies LiveSink;

beforeAll(async () => {
  server = http.createServer((req, res) => {
    let body = "";
    req.on("data", (chunk) => (body += chunk));
    req.on("end", () => {
      if (req.url === "/api/chatcrypt/relay") {
        res.writeHead(200, { "Content-Type": "text/event-stream" });
        res.write(`event: ready\ndata: {"relay":"r1"}\n\n`);
        relayStream = res;
      } else if (req.url?.startsWith("/api/collections/messages/records")) {
        held.push({
          body: JSON.parse(body) as Record<string, unknown>,
          answer: (status, data) => {
            res.writeHead(status, { "Content-Type": "application/json" });
            res.end(JSON.stringify(data));
          },
        });
      } else if (req.url?.startsWith("/api/collections/channel_members/records")) {
        // (a refused send asks whether the sender is a member, for the refusal's words)
        res.writeHead(200, { "Content-Type": "application/json" });
        res.end(JSON.stringify({ page: 1, perPage: 1, totalItems: -1, totalPages: -1, items: member ? [{ id: "membership1" }] : [] }));
      } else {
        const { add } = JSON.parse(body) as { add: string[] };
        res.writeHead(200, { "Content-Type": "application/json" });
        res.end(JSON.stringify({ users: add.map(() => "alice") }));
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
  // (the server's settings are read once: the modules are loaded afresh, after PB_URL names the stand-in)
  process.env.PB_URL = url.href;
  vi.resetModules();
  ({ createMessage } = await import("../../app/features/messages/messages.server"));
  ({ waitingSends } = await import("../../app/features/messages/committed.server"));
  hub = new (await import("../../app/features/live/relay.server")).RelayHub(url);
  expect(await hub.attach(stream, "token-a")).toBe(true);
});

afterAll(async () => {
  hub.detach(stream);
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

const record = (id: string, over: Record<string, string> = {}) => ({
  id,
  channel: "channel1",
  sender: "alice",
  encrypted_content: "envelope-1",
  created: "2026-11-26 10:00:00.000Z",
  ...over,
});
const send = (encryptedContent: string) =>
  createMessage({ token: "token-a" }, { channelId: "channel1", senderId: "alice", encryptedContent, senderPublicKey: "key" });

describe("a send answered on its message's relay event", () => {
  it("answers with the stored message before PocketBase answers the create, and ignores other senders' and channels' events", async () => {
    const answer = send("envelope-1");
    await until(() => held.length === 1);
    expect(held[0].body).toMatchObject({ channel: "channel1", sender: "alice", encrypted_content: "envelope-1" });
    let settled = false;
    void answer.finally(() => (settled = true));
    sendRelay("message", { to: ["alice"], record: record("other-sender", { sender: "bob" }) });
    sendRelay("message", { to: ["alice"], record: record("other-channel", { channel: "channel2" }) });
    sendRelay("message", { to: ["alice"], record: record("other-content", { encrypted_content: "envelope-2" }) });
    await new Promise((r) => setTimeout(r, 50));
    expect(settled).toBe(false);
    sendRelay("message", { to: ["alice"], record: record("m1") });
    expect(await answer).toEqual({
      id: "m1",
      channelId: "channel1",
      senderId: "alice",
      encryptedContent: "envelope-1",
      created: "2026-11-26 10:00:00.000Z",
      attachments: [],
      previews: [],
    });
    expect(waitingSends()).toBe(0);
    held.shift()?.answer(200, record("m1"));
  });

  it("without the event, PocketBase's answer is the answer (a refusal included), and nothing is left waiting", async () => {
    const answer = send("envelope-3");
    await until(() => held.length === 1);
    held.shift()?.answer(200, record("m3", { encrypted_content: "envelope-3" }));
    expect(await answer).toMatchObject({ id: "m3", encryptedContent: "envelope-3" });

    const refused = send("envelope-4");
    await until(() => held.length === 1);
    held.shift()?.answer(400, {});
    await expect(refused).rejects.toMatchObject({ status: 403 });
    expect(waitingSends()).toBe(0);

    // a member's message the create rule refuses: its words, not the membership's
    member = true;
    const malformed = send("envelope-5");
    await until(() => held.length === 1);
    held.shift()?.answer(400, {});
    await expect(malformed).rejects.toMatchObject({ status: 400 });
    expect(waitingSends()).toBe(0);
  });
});

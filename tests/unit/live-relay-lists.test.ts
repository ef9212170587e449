import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { RelayHub, type LiveSink } from "../../app/features/live/relay.server";

// The web process's side of PocketBase's named recipient lists (ADR 13, third addendum), against a
// stand-in for PocketBase's relay endpoints on loopback (the real PocketBase is covered by
// tests/integration/relay-endpoint.test.ts; here the stand-in sends what a test needs, including a list
// PocketBase would never name).

interface FakeRelay {
  url: URL;
  send(kind: string, data: unknown): void;
  close(): Promise<void>;
}

async function fakeRelay(users: Record<string, string>): Promise<FakeRelay> {
  let stream: http.ServerResponse | null = null;
  const server = http.createServer((req, res) => {
    if (req.url === "/api/chatcrypt/relay") {
      res.writeHead(200, { "Content-Type": "text/event-stream" });
      res.write(`event: ready\ndata: {"relay":"r1"}\n\n`);
      stream = res;
      return;
    }
    let body = "";
    req.on("data", (chunk) => (body += chunk));
    req.on("end", () => {
      const { add } = JSON.parse(body) as { add: string[] };
      res.writeHead(200, { "Content-Type": "application/json" });
      res.end(JSON.stringify({ users: add.map((token) => users[token] ?? "") }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: new URL(`http://127.0.0.1:${port}`),
    send: (kind, data) => stream?.write(`event: ${kind}\ndata: ${JSON.stringify(data)}\n\n`),
    close: () => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

function sink(userId: string) {
  const s = {
    userId,
    channelId: "channel1",
    tokenHash: `hash-${userId}`,
    frames: [] as string[],
    closed: false,
    write(frame: Uint8Array) {
      s.frames.push(Buffer.from(frame).toString());
    },
    close() {
      s.closed = true;
    },
  };
  return s satisfies LiveSink;
}

const message = (id: string) => ({
  id,
  channel: "channel1",
  sender: "alice",
  encrypted_content: `content ${id}`,
  created: "2026-11-23 10:00:00.000Z",
});

const until = async (check: () => boolean) => {
  for (let i = 0; i < 200 && !check(); i++) await new Promise((r) => setTimeout(r, 10));
  expect(check()).toBe(true);
};

let relay: FakeRelay | null = null;
afterEach(async () => {
  await relay?.close();
  relay = null;
});

describe("named recipient lists in the web process", () => {
  it("delivers an event that names a list to the streams of the list's users, as last defined", async () => {
    relay = await fakeRelay({ "token-a": "alice", "token-b": "bob" });
    const hub = new RelayHub(relay.url);
    const alice = sink("alice");
    const bob = sink("bob");
    expect(await hub.attach(alice, "token-a")).toBe(true);
    expect(await hub.attach(bob, "token-b")).toBe(true);

    relay.send("message", { list: "channel1", to: ["alice", "bob"], record: message("m1") });
    relay.send("message", { list: "channel1", record: message("m2") });
    await until(() => bob.frames.join("").includes("content m2"));
    expect(alice.frames.join("")).toContain("content m2");

    // Redefined without Bob (he left): later events named by the list no longer reach him.
    relay.send("message", { list: "channel1", to: ["alice"], record: message("m3") });
    relay.send("message", { list: "channel1", record: message("m4") });
    await until(() => alice.frames.join("").includes("content m4"));
    expect(bob.frames.join("")).not.toContain("content m3");
    expect(bob.frames.join("")).not.toContain("content m4");

    // A second stream of Alice's, opened after the list was defined, gets the next events too.
    const aliceTab = sink("alice");
    expect(await hub.attach(aliceTab, "token-a")).toBe(true);
    relay.send("message", { list: "channel1", record: message("m5") });
    await until(() => aliceTab.frames.join("").includes("content m5"));
    hub.detach(alice);
    hub.detach(bob);
    hub.detach(aliceTab);
  });

  it("starts over when PocketBase names a list it never sent: every stream closes, to reconnect and catch up", async () => {
    relay = await fakeRelay({ "token-a": "alice" });
    const hub = new RelayHub(relay.url);
    const alice = sink("alice");
    expect(await hub.attach(alice, "token-a")).toBe(true);
    relay.send("message", { list: "unknown-list", record: message("m1") });
    await until(() => alice.closed);
    expect(alice.frames.join("")).not.toContain("content m1");
  });
});

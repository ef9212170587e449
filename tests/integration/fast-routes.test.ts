import { randomBytes } from "node:crypto";
import http from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { WebClient } from "../../bench/lib/web-client.mjs";
import { createWebChannel, joinWebChannel, listen, signedInPage, startLiveStack, type WebServer } from "./live-pages";

// POST /api/channels/:id/messages is answered before Remix (app/fast-routes.server.ts) by the
// route's own action: the same checks and answers as any other API route.
let web: WebServer;
let stack: Awaited<ReturnType<typeof startLiveStack>> | undefined;

beforeAll(async () => {
  stack = await startLiveStack();
  web = stack.web;
});

afterAll(() => stack?.stop());

/** A raw POST (optionally chunked, without Content-Length) to the web server. */
function post(
  path: string,
  headers: Record<string, string>,
  body: string,
  chunked = false,
): Promise<{ status: number; headers: http.IncomingHttpHeaders; json: { message?: unknown } }> {
  return new Promise((resolve, reject) => {
    const h: Record<string, string | number> = { "Content-Type": "application/json", ...headers };
    if (!chunked) h["Content-Length"] = Buffer.byteLength(body);
    const req = http.request(`${web.url}${path}`, { method: "POST", headers: h, agent: false }, (res) => {
      let text = "";
      res.setEncoding("utf8");
      res.on("data", (c: string) => (text += c));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, json: JSON.parse(text) }));
    });
    req.on("error", reject);
    req.end(body);
  });
}

/** Alice's channel with Bob in it, its messages' path, and a fresh client id. */
async function twoMembers() {
  const alice = await signedInPage(web.url);
  const bob = await signedInPage(web.url);
  const channel = await createWebChannel(alice);
  await joinWebChannel(bob, channel);
  return { alice, bob, channel, path: `/api/channels/${channel.id}/messages`, clientId: crypto.randomUUID() };
}

describe("sending a message", () => {
  it("answers like the route always did: the stored message, or a clear 4xx", async () => {
    const alice = await signedInPage(web.url);
    const mallory = await signedInPage(web.url);
    const channel = await createWebChannel(alice);
    const path = `/api/channels/${channel.id}/messages`;
    const auth = { Cookie: alice.cookieHeader(), "X-CSRF-Token": alice.csrf };
    const live = await listen(alice, channel.id);
    const visitor = new WebClient(web.url);
    await visitor.loadPage();

    const ok = await post(path, auth, JSON.stringify({ encryptedContent: "ciphertext", senderPublicKey: "key" }));
    expect(ok.status).toBe(200);
    expect(ok.headers["cache-control"]).toBe("no-store");
    expect(ok.headers["content-type"]).toMatch(/^application\/json/);
    expect(ok.json).toEqual({
      message: {
        id: expect.any(String),
        channelId: channel.id,
        senderId: alice.user.id,
        encryptedContent: "ciphertext",
        created: expect.any(String),
        attachments: [],
        previews: [],
      },
    });
    await expect.poll(() => live.texts()).toEqual(["ciphertext"]);
    live.close();

    const cases: [string, Promise<{ status: number; json: { message?: unknown } }>, number, RegExp][] = [
      ["no CSRF token", post(path, { Cookie: alice.cookieHeader() }, "{}"), 403, /session has expired/],
      [
        "another page's CSRF token",
        post(path, { Cookie: alice.cookieHeader(), "X-CSRF-Token": mallory.csrf }, "{}"),
        403,
        /session has expired/,
      ],
      ["not signed in", post(path, { Cookie: visitor.cookieHeader(), "X-CSRF-Token": visitor.csrf }, "{}"), 401, /Not authenticated/],
      ["not a channel id", post("/api/channels/nope/messages", auth, "{}"), 400, /UUID/],
      ["a broken percent-encoding in the address", post("/api/channels/%E0%A4%A/messages", auth, "{}"), 400, /malformed/],
      ["broken JSON", post(path, auth, "[1,2"), 400, /JSON/],
      ["empty envelope", post(path, auth, JSON.stringify({ encryptedContent: "" })), 400, /./],
      ["declared too large", post(path, auth, "x".repeat(300 * 1024)), 413, /too large/],
      ["chunked and too large", post(path, auth, JSON.stringify({ encryptedContent: "x".repeat(300 * 1024) }), true), 413, /too large/],
      [
        "chunked, too large in bytes, cut inside a character",
        post(path, auth, JSON.stringify({ encryptedContent: "é".repeat(140 * 1024) }), true),
        413,
        /too large/,
      ],
      [
        "not a member",
        post(path, { Cookie: mallory.cookieHeader(), "X-CSRF-Token": mallory.csrf }, JSON.stringify({ encryptedContent: "x" })),
        403,
        /not a member/,
      ],
    ];
    for (const [name, response, status, message] of cases) {
      const r = await response;
      expect(r.status, name).toBe(status);
      expect(String(r.json.message), name).toMatch(message);
      expect(JSON.stringify(r.json), name).not.toMatch(/at \w+ \(|node_modules|Error:/);
    }
  });

  it("reads PocketBase's answers to a send: a retry answers the stored message, an edit of another's message is refused", async () => {
    const { alice, bob, path, clientId } = await twoMembers();
    const first = await alice.api(path, { encryptedContent: "once", senderPublicKey: "", clientId });
    const retry = await alice.api(path, { encryptedContent: "once", senderPublicKey: "", clientId });
    expect(first.replayed).toBeUndefined();
    expect(retry).toEqual({ message: first.message, replayed: true });

    const edit = await post(
      path,
      { Cookie: bob.cookieHeader(), "X-CSRF-Token": bob.csrf },
      JSON.stringify({ encryptedContent: "not yours", kind: "edit", targetId: first.message.id }),
    );
    expect(edit.status).toBe(403);
    expect(edit.json.message).toBe("Only the sender can edit a message.");
    const page = await alice.api(`${path}?limit=10`);
    expect(page.messages.map((m: { encryptedContent: string }) => m.encryptedContent)).toEqual(["once"]);
  });

  it("stores one message per conversation and client id: a second member's send under it is a 409 (a call's single entry)", async () => {
    const { alice, bob, path, clientId } = await twoMembers();
    await alice.api(path, { encryptedContent: "entry", senderPublicKey: "", clientId });
    const again = await post(
      path,
      { Cookie: bob.cookieHeader(), "X-CSRF-Token": bob.csrf },
      JSON.stringify({ encryptedContent: "entry again", senderPublicKey: "", clientId }),
    );
    expect(again.status).toBe(409);
    // the same id in another conversation is another message
    const other = await createWebChannel(bob);
    expect(
      (await bob.api(`/api/channels/${other.id}/messages`, { encryptedContent: "x", senderPublicKey: "", clientId })).message,
    ).toBeTruthy();
    const page = await alice.api(`${path}?limit=10`);
    expect(page.messages.map((m: { encryptedContent: string }) => m.encryptedContent)).toEqual(["entry"]);
  });

  it("leaves every other route to Remix (reading the messages back)", async () => {
    const alice = await signedInPage(web.url);
    const channel = await createWebChannel(alice);
    const text = randomBytes(8).toString("hex");
    await alice.api(`/api/channels/${channel.id}/messages`, { encryptedContent: text, senderPublicKey: "" });
    const page = await alice.api(`/api/channels/${channel.id}/messages?limit=10`);
    expect(page.messages.map((m: { encryptedContent: string }) => m.encryptedContent)).toEqual([text]);
  });
});

// The search backfill's progress figure ("Indexed 12,400 of 15,000 messages") takes its total from the
// first page of history: `count=1` adds the channel's number of messages, edits and reactions left out.
describe("a page of history around a message", () => {
  it("answers the messages around it with hasNewer, 404 for one not in the channel, 400 for a bad or mixed request", async () => {
    const alice = await signedInPage(web.url);
    const channel = await createWebChannel(alice);
    const other = await createWebChannel(alice);
    const path = `/api/channels/${channel.id}/messages`;
    const ids: string[] = [];
    for (let i = 0; i < 7; i++) ids.push((await alice.api(path, { encryptedContent: `m${i}`, senderPublicKey: "" })).message.id);
    const page = await alice.api(`${path}?around=${ids[3]}&limit=4`);
    expect(page.messages.map((m: { id: string }) => m.id)).toEqual(ids.slice(2, 6));
    expect(page).toMatchObject({ hasMore: true, hasNewer: true });
    const last = await alice.api(`${path}?around=${ids[6]}&limit=4`);
    expect(last.messages.map((m: { id: string }) => m.id)).toEqual(ids.slice(5));
    expect(last).not.toHaveProperty("hasNewer");
    const elsewhere = await alice.api(`/api/channels/${other.id}/messages?around=${ids[3]}`).catch((e: { status: number }) => e);
    expect(elsewhere).toMatchObject({ status: 404 });
    for (const bad of ["x", "ABCDEFGHIJKLMNO", `${ids[3]}&before=2026-01-01`, `${ids[3]}&after=2026-01-01`]) {
      const error = await alice.api(`${path}?around=${bad}`).catch((e: { status: number; message: string }) => e);
      expect(error).toMatchObject({ status: 400, message: "Invalid message page." });
    }
  });
});

describe("a page of history with count=1", () => {
  it("carries the channel's number of messages, and only when asked", async () => {
    const alice = await signedInPage(web.url);
    const channel = await createWebChannel(alice);
    const path = `/api/channels/${channel.id}/messages`;
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push((await alice.api(path, { encryptedContent: `m${i}`, senderPublicKey: "" })).message.id);
    await alice.api(path, { encryptedContent: "edit", senderPublicKey: "", kind: "edit", targetId: ids[0] });
    await alice.api(path, { encryptedContent: "reaction", senderPublicKey: "", kind: "reaction", targetId: ids[1] });

    const counted = await alice.api(`${path}?limit=2&count=1`);
    expect(counted.totalItems).toBe(5);
    expect(counted.hasMore).toBe(true);
    expect(counted.messages.filter((m: { kind?: string }) => !m.kind)).toHaveLength(2);
    const plain = await alice.api(`${path}?limit=2`);
    expect(plain).not.toHaveProperty("totalItems");
  });

  it("refuses any other value of count with a clear 400", async () => {
    const alice = await signedInPage(web.url);
    const channel = await createWebChannel(alice);
    for (const bad of ["0", "yes", "2"]) {
      const error = await alice
        .api(`/api/channels/${channel.id}/messages?count=${bad}`)
        .catch((e: { status: number; message: string }) => e);
      expect(error).toMatchObject({ status: 400, message: "Invalid message page." });
    }
  });
});

// A conversation's first page (and the unread mentions' scan) asks for its senders' public keys with
// it: `profiles=1` adds what /api/profiles answers for them, so the page verifies without asking again.
describe("a page of history with profiles=1", () => {
  it("names the page's senders as /api/profiles does, only when asked; any other value is a clear 400", async () => {
    const alice = await signedInPage(web.url);
    const bob = await signedInPage(web.url);
    const channel = await createWebChannel(alice);
    await joinWebChannel(bob, channel);
    const path = `/api/channels/${channel.id}/messages`;
    const first = (await alice.api(path, { encryptedContent: "a", senderPublicKey: "" })).message;
    await bob.api(path, { encryptedContent: "b", senderPublicKey: "" });
    const ids = [alice.user.id, bob.user.id];
    const byId = (list: { id: string }[]) => [...list].sort((a, b) => a.id.localeCompare(b.id));
    const expected = byId((await alice.api(`/api/profiles?ids=${ids.join(",")}`)).profiles);
    expect(expected.map((p) => p.id)).toEqual([...ids].sort());
    const since = encodeURIComponent(first.created);
    for (const query of ["limit=10", `around=${first.id}`, `after=${since}`]) {
      expect(byId((await alice.api(`${path}?${query}&profiles=1`)).profiles), query).toEqual(expected);
      expect(await alice.api(`${path}?${query}`), query).not.toHaveProperty("profiles");
    }
    for (const bad of ["0", "yes", "2"]) {
      const error = await alice.api(`${path}?profiles=${bad}`).catch((e: { status: number; message: string }) => e);
      expect(error).toMatchObject({ status: 400, message: "Invalid message page." });
    }
  });
});

describe("paging back with before and beforeId", () => {
  it("goes on below the given message, and refuses a beforeId alone or malformed with a clear 400", async () => {
    const alice = await signedInPage(web.url);
    const channel = await createWebChannel(alice);
    const path = `/api/channels/${channel.id}/messages`;
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) ids.push((await alice.api(path, { encryptedContent: `m${i}`, senderPublicKey: "" })).message.id);
    const seen: string[] = [];
    let page = await alice.api(`${path}?limit=1`);
    for (;;) {
      const [oldest] = page.messages as { id: string; created: string }[];
      seen.unshift(oldest.id);
      if (!page.hasMore) break;
      page = await alice.api(`${path}?limit=1&before=${encodeURIComponent(oldest.created)}&beforeId=${oldest.id}`);
    }
    expect(seen).toEqual(ids);
    for (const bad of [`beforeId=${ids[1]}`, "before=2026-01-01&beforeId=x", `around=${ids[1]}&beforeId=${ids[0]}`]) {
      const error = await alice.api(`${path}?${bad}`).catch((e: { status: number; message: string }) => e);
      expect(error).toMatchObject({ status: 400, message: "Invalid message page." });
    }
  });
});

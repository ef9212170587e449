import { randomBytes } from "node:crypto";
import { createCookieSessionStorage } from "@remix-run/node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EventSource } from "eventsource";
import type { RunningPocketBase } from "./pocketbase";
import { createWebChannel, joinWebChannel, listen, postWebMessage, signedInPage, startLiveStack, type WebServer } from "./live-pages";

// The live relay (pocketbase/relay.go and app/features/live/relay.server.ts): one upstream connection
// per web process, each event sent once with its recipients, fanned out to those users' streams.
// Here the users' streams through a web process; relay-endpoint.test.ts is PocketBase's side alone.
let pb: RunningPocketBase;
let web: WebServer;
let stack: Awaited<ReturnType<typeof startLiveStack>> | undefined;
const sessionSecret = randomBytes(32).toString("base64url");

beforeAll(async () => {
  stack = await startLiveStack({ sessionSecret });
  ({ pb, web } = stack);
});

afterAll(() => stack?.stop());

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe("/api/events through the relay", () => {
  it("delivers a message once to each member's streams and never to a non-member", async () => {
    const [alice, bob, mallory] = await Promise.all([signedInPage(web.url), signedInPage(web.url), signedInPage(web.url)]);
    const channel = await createWebChannel(alice);
    await joinWebChannel(bob, channel);
    const [aliceLive, bobTab1, bobTab2, malloryLive] = await Promise.all([
      listen(alice, channel.id),
      listen(bob, channel.id),
      listen(bob),
      listen(mallory),
    ]);
    // every stream starts with "sync"
    for (const l of [aliceLive, bobTab1, bobTab2, malloryLive]) expect(l.events[0]).toEqual({ type: "sync" });

    const sent = await postWebMessage(alice, channel.id, "hello-bob");
    await expect.poll(() => bobTab1.texts()).toEqual(["hello-bob"]);
    await expect.poll(() => bobTab2.texts()).toEqual(["hello-bob"]);
    await expect.poll(() => aliceLive.texts()).toEqual(["hello-bob"]);
    const event = bobTab1.events.find((e) => e.type === "message");
    expect(event).toEqual({
      type: "message",
      message: {
        id: sent.id,
        channelId: channel.id,
        senderId: alice.user.id,
        encryptedContent: "hello-bob",
        created: expect.any(String),
        attachments: [],
        previews: [],
      },
    });

    // One of Bob's tabs closes: the other keeps receiving.
    bobTab1.close();
    await sleep(200);
    await postWebMessage(alice, channel.id, "second");
    await expect.poll(() => bobTab2.texts()).toEqual(["hello-bob", "second"]);

    await sleep(300);
    expect(malloryLive.texts()).toEqual([]);
    for (const l of [aliceLive, bobTab2, malloryLive]) l.close();
  });

  it("a removed member stops receiving at once, and is told to reload the channel list", async () => {
    const [alice, bob] = await Promise.all([signedInPage(web.url), signedInPage(web.url)]);
    const channel = await createWebChannel(alice);
    await joinWebChannel(bob, channel);
    const bobLive = await listen(bob, channel.id);
    const aliceLive = await listen(alice, channel.id);
    await postWebMessage(alice, channel.id, "while a member");
    await expect.poll(() => bobLive.texts()).toEqual(["while a member"]);

    await bob.api(`/api/channels/${channel.id}/leave`, {});
    await expect.poll(() => bobLive.events.filter((e) => e.type === "memberships").length).toBeGreaterThan(0);
    // the member who stays hears about it too
    await expect.poll(() => aliceLive.events.filter((e) => e.type === "memberships").length).toBeGreaterThan(0);
    await postWebMessage(alice, channel.id, "after leaving");
    await expect.poll(() => aliceLive.texts()).toEqual(["while a member", "after leaving"]);
    await sleep(300);
    expect(bobLive.texts()).toEqual(["while a member"]);
    bobLive.close();
    aliceLive.close();
  });

  it("sends deletions only to streams open on that channel, every one of a burst, in order", async () => {
    const alice = await signedInPage(web.url);
    const channel = await createWebChannel(alice);
    const other = await createWebChannel(alice);
    const onChannel = await listen(alice, channel.id);
    const elsewhere = await listen(alice, other.id);
    const sent = [];
    for (let i = 0; i < 5; i++) sent.push(await postWebMessage(alice, channel.id, `to clear ${i}`));
    // new messages reach every stream of the user (for notifications)
    await expect.poll(() => elsewhere.texts()).toEqual(sent.map((m) => m.encryptedContent));
    // one request deletes them all: the events come in a burst, several per read from PocketBase
    await alice.api(`/api/channels/${channel.id}/clear`, {});
    await expect
      .poll(() => onChannel.events.filter((e) => e.type === "message-deleted"))
      .toEqual(sent.map((m) => ({ type: "message-deleted", channelId: channel.id, messageId: m.id })));
    await sleep(300);
    expect(elsewhere.events.some((e) => e.type === "message-deleted")).toBe(false);
    onChannel.close();
    elsewhere.close();
  });

  it("answers 401 without a session, and to a session whose token PocketBase refuses", async () => {
    const anonymous = await fetch(`${web.url}/api/events`);
    expect(anonymous.status).toBe(401);
    expect(await anonymous.json()).toEqual({ message: "Not authenticated" });

    const bad = await fetch(`${web.url}/api/events?channel=not-a-uuid`, {
      headers: { Cookie: (await signedInPage(web.url)).cookieHeader() },
    });
    expect(bad.status).toBe(400);

    // A session cookie the web server signed, but with a token PocketBase does not accept (e.g. expired).
    const storage = createCookieSessionStorage({
      cookie: { name: "chatcrypt_session", secrets: [sessionSecret], path: "/", httpOnly: true, sameSite: "lax" },
    });
    const alice = await signedInPage(web.url);
    const channel = await createWebChannel(alice);
    const session = await storage.getSession();
    session.set("token", `${alice.pocketBaseToken().slice(0, -4)}AAAA`);
    session.set("userId", alice.user.id);
    const cookie = (await storage.commitSession(session)).split(";")[0];
    const events: string[] = [];
    const source = new EventSource(`${web.url}/api/events?channel=${channel.id}`, {
      fetch: (input, init) => fetch(input, { ...init, headers: { ...(init?.headers as Record<string, string>), Cookie: cookie } }),
    });
    let errors = 0;
    source.onmessage = (m) => events.push(m.data);
    source.onerror = () => errors++;
    await postWebMessage(alice, channel.id, "not for a refused token");
    await expect.poll(() => errors, { timeout: 10_000 }).toBeGreaterThan(0);
    source.close();
    expect(events).toEqual([]);
  });

  it("signing out closes the session's open streams at once (every tab), and its cookie opens no new one", async () => {
    const [alice, bob] = await Promise.all([signedInPage(web.url), signedInPage(web.url)]);
    const channel = await createWebChannel(bob);
    await joinWebChannel(alice, channel);
    const [tab1, tab2] = await Promise.all([listen(alice, channel.id), listen(alice)]);
    await postWebMessage(bob, channel.id, "before sign-out");
    await expect.poll(() => tab2.texts()).toEqual(["before sign-out"]);
    const oldCookie = alice.cookieHeader();

    await alice.api("/api/auth/signout", {});
    await expect.poll(() => tab1.ended() && tab2.ended(), { timeout: 5_000 }).toBe(true);
    await postWebMessage(bob, channel.id, "after sign-out");
    await sleep(300);
    expect(tab1.texts()).toEqual(["before sign-out"]);
    expect(tab2.texts()).toEqual(["before sign-out"]);
    const again = await fetch(`${web.url}/api/events`, { headers: { Cookie: oldCookie } });
    expect(again.status).toBe(401);
  });

  it("tells a channel's streams when its member list changes, and the joiner to reload their channels", async () => {
    const [alice, bob] = await Promise.all([signedInPage(web.url), signedInPage(web.url)]);
    const channel = await createWebChannel(alice);
    const other = await createWebChannel(alice);
    const [onChannel, elsewhere, bobLive] = await Promise.all([listen(alice, channel.id), listen(alice, other.id), listen(bob)]);
    await joinWebChannel(bob, channel);
    await expect.poll(() => onChannel.events.filter((e) => e.type === "members").length).toBe(1);
    await expect.poll(() => bobLive.events.filter((e) => e.type === "memberships").length).toBe(1);
    await sleep(300);
    expect(elsewhere.events.some((e) => e.type === "members")).toBe(false);
    expect(bobLive.events.some((e) => e.type === "members")).toBe(false);
    for (const l of [onChannel, elsewhere, bobLive]) l.close();
  });

  it("closes every stream when PocketBase goes away; reconnected streams sync and receive again", async () => {
    const [alice, bob] = await Promise.all([signedInPage(web.url), signedInPage(web.url)]);
    const channel = await createWebChannel(alice);
    await joinWebChannel(bob, channel);
    const before = await listen(bob, channel.id);
    await pb.restart();
    await expect.poll(() => before.ended(), { timeout: 10_000 }).toBe(true);

    const after = await listen(bob, channel.id);
    expect(after.events[0]).toEqual({ type: "sync" });
    await postWebMessage(alice, channel.id, "after the restart");
    await expect.poll(() => after.texts()).toEqual(["after the restart"]);
    after.close();
  });
});

// Calls end at once for whoever may no longer be in them (ADR 0050): a removed member, a participant
// who leaves a direct conversation and a signed-out device are out of the LiveKit room within a
// moment, and a former member who comes back with a token LiveKit still accepts is removed as soon as a
// member's page looks (it asks on every join). Real PocketBase, web server and LiveKit.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startCallStack, type CallStack } from "./call-stack";
import { createChannel, joinChannel, signUpUser, type RunningPocketBase, type TestUser } from "./pocketbase";
import { signedInClient, type WebClient, type WebServer } from "./web-session";

let stack: CallStack;
let pb: RunningPocketBase;
let web: WebServer;
let alice: TestUser;
let bob: TestUser;
let carol: TestUser;
/** "At once": what the report of the problem measured LiveKit still accepting a removed member after. */
const AT_ONCE_MS = 1_500;

const ticket = (client: WebClient, room: string, device: string) => stack.ticket(client, room, device);
const identities = (room: string) => stack.identities(room);
const enter = (room: string, token: string, identity: string) => stack.enter(room, token, identity);
const refusal = (promise: Promise<unknown>) =>
  promise.then(
    () => 200,
    (error: { status: number }) => error.status,
  );

beforeAll(async () => {
  stack = await startCallStack();
  ({ pb, web } = stack);
  // (Alice first: the workspace's first account is its owner, whom no channel admin removes; Bob is removed here)
  alice = await signUpUser(pb.url);
  [bob, carol] = await Promise.all([1, 2].map(() => signUpUser(pb.url)));
}, 15 * 60_000);

afterAll(() => stack?.stop());

describe("call participation ends with membership", () => {
  it("a member removed from a channel is out of its call at once, and removed again when back with the same token", async () => {
    const channel = await createChannel(alice);
    expect((await joinChannel(bob, channel)).status).toBe(200);
    const [asAlice, asBob] = await Promise.all([signedInClient(web.url, alice), signedInClient(web.url, bob)]);
    const aliceTicket = await ticket(asAlice, channel.id, "a11cedevice00001");
    const bobTicket = await ticket(asBob, channel.id, "b0bdevice0000001");
    // Tokens are short: minutes, not the ten they were.
    const claims = JSON.parse(Buffer.from(bobTicket.token.split(".")[1], "base64url").toString("utf8"));
    expect(claims.exp - claims.nbf).toBeLessThanOrEqual(2 * 60);
    await enter(channel.id, aliceTicket.token, `${alice.id}:a11cedevice00001`);
    await enter(channel.id, bobTicket.token, `${bob.id}:b0bdevice0000001`);

    const removedAt = Date.now();
    await asAlice.api(`/api/channels/${channel.id}/members/${bob.id}/remove`, {});
    await expect.poll(() => identities(channel.id), { timeout: AT_ONCE_MS, interval: 100 }).not.toContain(`${bob.id}:b0bdevice0000001`);
    expect(Date.now() - removedAt).toBeLessThan(AT_ONCE_MS);
    // No new token for him.
    expect(await refusal(ticket(asBob, channel.id, "b0bdevice0000001"))).toBe(404);

    // Back with the token he had (LiveKit cannot revoke it): Alice's page asks the moment he appears,
    // and he is out again before he is counted.
    await stack.join(bobTicket.token);
    await expect.poll(() => identities(channel.id), { timeout: 10_000 }).toContain(`${bob.id}:b0bdevice0000001`);
    const backAt = Date.now();
    // (Alice is in the call herself: the status says so, ADR 32)
    expect(await asAlice.api(`/api/calls/${channel.id}/status`)).toEqual({ enabled: true, participants: 1, withViewer: true });
    await expect.poll(() => identities(channel.id), { timeout: AT_ONCE_MS, interval: 100 }).not.toContain(`${bob.id}:b0bdevice0000001`);
    expect(Date.now() - backAt).toBeLessThan(AT_ONCE_MS);
    expect(await identities(channel.id)).toEqual([`${alice.id}:a11cedevice00001`]);
  });

  it("a participant who leaves a direct conversation is out of its call at once", async () => {
    // colleagues (they share a channel), so the conversation is no request (ADR 52)
    const team = await createChannel(alice);
    for (const colleague of [bob, carol]) expect((await joinChannel(colleague, team)).status).toBe(200);
    const [asAlice, asCarol] = await Promise.all([signedInClient(web.url, alice), signedInClient(web.url, carol)]);
    const id = randomUUID();
    await asAlice.api("/api/direct", { id, participants: [carol.id, bob.id] });
    await enter(id, (await ticket(asCarol, id, "ca401device00001")).token, `${carol.id}:ca401device00001`);
    await asCarol.api(`/api/channels/${id}/leave`, {});
    await expect.poll(() => identities(id), { timeout: AT_ONCE_MS, interval: 100 }).not.toContain(`${carol.id}:ca401device00001`);
  });

  it("a device signed out from another is out of its call at once; the user's other device stays", async () => {
    const channel = await createChannel(alice);
    expect((await joinChannel(bob, channel)).status).toBe(200);
    const [laptop, phone] = [await signedInClient(web.url, bob), await signedInClient(web.url, bob)];
    await enter(channel.id, (await ticket(laptop, channel.id, "b0b1aptop0000001")).token, `${bob.id}:b0b1aptop0000001`);
    await enter(channel.id, (await ticket(phone, channel.id, "b0bph0ne00000001")).token, `${bob.id}:b0bph0ne00000001`);
    const { sessions } = (await laptop.api("/api/auth/sessions")) as { sessions: { id: string; current: boolean }[] };
    const phoneSession = (await phone.api("/api/auth/sessions")) as { sessions: { id: string; current: boolean }[] };
    const phoneId = phoneSession.sessions.find((s) => s.current)!.id;
    expect(sessions.some((s) => s.id === phoneId && !s.current)).toBe(true);
    await laptop.api(`/api/auth/sessions/${phoneId}/revoke`, {});
    await expect.poll(() => identities(channel.id), { timeout: AT_ONCE_MS, interval: 100 }).not.toContain(`${bob.id}:b0bph0ne00000001`);
    expect(await identities(channel.id)).toEqual([`${bob.id}:b0b1aptop0000001`]);
  });
});

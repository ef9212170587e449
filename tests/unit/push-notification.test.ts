import { describe, expect, it } from "vitest";
import { notificationFor, type PushPayload } from "~/features/push/push-worker";

// Where a push notification's click leads (ADR 24): the message, a thread's reply in its thread (it
// used to open the conversation at the reply, which is not in it: "This message is no longer there."),
// a call in its conversation.
const origin = "https://chat.example";
const push = (over: Partial<PushPayload>): PushPayload => ({
  v: 1,
  c: "0f8fad5b-d9cb-469f-a165-70867728950e",
  n: "Ops",
  mls: true,
  m: "m".repeat(15),
  s: "s".repeat(15),
  u: "alice",
  t: "2026-12-01 09:00:00.000Z",
  ...over,
});

describe("a push notification's address", () => {
  it("opens the conversation at the message", async () => {
    expect((await notificationFor(push({}), origin)).url).toBe(`${origin}/c/0f8fad5b-d9cb-469f-a165-70867728950e/m/${"m".repeat(15)}`);
  });

  it("opens a thread's reply in its thread", async () => {
    const reply = await notificationFor(push({ r: "r".repeat(15) }), origin);
    expect(reply.url).toBe(`${origin}/c/0f8fad5b-d9cb-469f-a165-70867728950e/t/${"r".repeat(15)}`);
    // (a root id that is not one is not made into an address)
    expect((await notificationFor(push({ r: "../x" }), origin)).url).toContain("/m/");
  });

  it("opens a call in its conversation", async () => {
    const call = await notificationFor(push({ k: "call", m: "", d: true }), origin);
    expect(call).toMatchObject({ title: "alice is calling", url: `${origin}/c/0f8fad5b-d9cb-469f-a165-70867728950e` });
  });
});

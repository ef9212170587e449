// A page that joins or leaves a call tells the conversation's members' open pages at once, through the
// live relay (pocketbase/calls.go, ADR 32): members only, nothing stored, bad input a 4xx.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { LiveEvent } from "../../app/features/live/types";
import { createWebChannel, joinWebChannel, listen, signedInPage, startLiveStack, type WebClient } from "./live-pages";

let stack: Awaited<ReturnType<typeof startLiveStack>> | undefined;
let url: string;

beforeAll(async () => {
  stack = await startLiveStack();
  url = stack.web.url;
}, 5 * 60_000);

afterAll(() => stack?.stop());

async function status(page: WebClient, path: string, body: unknown) {
  try {
    await page.api(path, body);
    return { status: 200, message: "" };
  } catch (error) {
    const { status: code, message } = error as { status: number; message: string };
    return { status: code, message };
  }
}

const callEvents = (events: LiveEvent[]) => events.filter((e): e is Extract<LiveEvent, { type: "call" }> => e.type === "call");

describe("call presence", () => {
  it("reaches every member's open stream, whichever conversation it has open, and nobody else's", async () => {
    const [alice, bob, mallory] = await Promise.all([signedInPage(url), signedInPage(url), signedInPage(url)]);
    const channel = await createWebChannel(alice);
    await joinWebChannel(bob, channel);
    const other = await createWebChannel(bob);
    const bobs = await listen(bob, other.id); // Bob has another conversation open
    const mallorys = await listen(mallory);
    expect((await status(alice, `/api/calls/${channel.id}/presence`, { event: "joined", ring: true })).status).toBe(200);
    await expect.poll(() => callEvents(bobs.events).length).toBe(1);
    // a channel call never rings; the name is the caller's username
    expect(callEvents(bobs.events)[0]).toEqual({
      type: "call",
      channelId: channel.id,
      userId: alice.user.id,
      name: alice.user.username,
      event: "joined",
      ring: false,
    });
    expect((await status(alice, `/api/calls/${channel.id}/presence`, { event: "left" })).status).toBe(200);
    await expect.poll(() => callEvents(bobs.events).map((e) => e.event)).toEqual(["joined", "left"]);
    // Mallory, no member, is refused and hears nothing
    expect(await status(mallory, `/api/calls/${channel.id}/presence`, { event: "joined" })).toEqual({
      status: 404,
      message: "Conversation not found",
    });
    expect(callEvents(mallorys.events)).toEqual([]);
    bobs.close();
    mallorys.close();
  });

  it("answers bad input with a 4xx and a sentence", async () => {
    const alice = await signedInPage(url);
    const channel = await createWebChannel(alice);
    for (const body of [{}, { event: "rang" }, { event: "joined", ring: "yes" }, { event: "joined", extra: 1 }]) {
      const answer = await status(alice, `/api/calls/${channel.id}/presence`, body);
      expect(answer.status, JSON.stringify(body)).toBe(400);
      expect(answer.message.length).toBeGreaterThan(5);
    }
    expect((await status(alice, `/api/calls/not-a-channel/presence`, { event: "joined" })).status).toBe(400);
  });
});

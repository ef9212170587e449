// Live streams per session and per account (docs/decisions/0068-caps-per-account.md,
// app/features/live/stream-caps.server.ts): 20 open /api/events per session and 40 per account in a
// web process; a new one beyond a cap closes the oldest. Tried with raw streams through the web server.

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createWebChannel, listen, postWebMessage, startLiveStack, type WebClient } from "./live-pages";
import { signUpUser } from "./pocketbase";
import { signedInClient } from "./web-session";

let stack: Awaited<ReturnType<typeof startLiveStack>> | undefined;

beforeAll(async () => {
  stack = await startLiveStack();
}, 120_000);

afterAll(() => stack?.stop());

/** Sessions (as separate browsers) of one new account. */
async function sessionsOfOneAccount(count: number): Promise<WebClient[]> {
  const { pb, web } = stack!;
  const user = await signUpUser(pb.url);
  return Promise.all(Array.from({ length: count }, () => signedInClient(web.url, user)));
}

type Listening = Awaited<ReturnType<typeof listen>>;
const open = async (page: WebClient, count: number) => {
  const streams: Listening[] = [];
  for (let n = 0; n < count; n++) streams.push(await listen(page));
  return streams;
};
const closeAll = (streams: Listening[]) => streams.forEach((stream) => stream.close());

describe("live streams per session and per account", () => {
  it("several tabs on several devices all stay open", { timeout: 60_000 }, async () => {
    const [laptop, phone, desktop] = await sessionsOfOneAccount(3);
    const streams = [...(await open(laptop, 8)), ...(await open(phone, 2)), ...(await open(desktop, 8))];
    for (const stream of streams) expect(stream.events[0]).toEqual({ type: "sync" });
    // every one of them still hears a message sent after the last was opened
    const channel = await createWebChannel(laptop);
    await postWebMessage(laptop, channel.id, "to every tab");
    for (const stream of streams) await expect.poll(() => stream.texts()).toEqual(["to every tab"]);
    expect(streams.filter((stream) => stream.ended())).toEqual([]);
    closeAll(streams);
  });

  it("a session's 21st stream closes its oldest, and only that one", { timeout: 60_000 }, async () => {
    const [attacker] = await sessionsOfOneAccount(1);
    const streams = await open(attacker, 20);
    const newest = await listen(attacker);
    await expect.poll(() => streams[0].ended()).toBe(true);
    expect(streams.slice(1).filter((stream) => stream.ended())).toEqual([]);
    expect(newest.ended()).toBe(false);
    // opening many more keeps the session at 20
    const more = await open(attacker, 30);
    const all = [...streams, newest, ...more];
    await expect.poll(() => all.filter((stream) => !stream.ended()).length).toBe(20);
    expect(more.slice(-20).filter((stream) => stream.ended())).toEqual([]);
    closeAll(all);
  });

  it("an account's 41st stream closes its oldest, whichever session it is in", { timeout: 60_000 }, async () => {
    const [first, second, third] = await sessionsOfOneAccount(3);
    const streams = [...(await open(first, 20)), ...(await open(second, 20))];
    const newest = await listen(third);
    await expect.poll(() => streams[0].ended()).toBe(true);
    expect(streams.slice(1).filter((stream) => stream.ended())).toEqual([]);
    expect(newest.ended()).toBe(false);
    closeAll([...streams, newest]);
  });
});

// The web app's routes that name people (ADR 0077), through the web server we build in front of
// the PocketBase we build: /api/profiles names only people the caller may know, the members list
// shows channel-mates, and the DM picker's look-up by exact username still finds a stranger.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createWebChannel, joinWebChannel, postWebMessage, signedInPage, startLiveStack, type WebClient } from "./live-pages";

let stack: Awaited<ReturnType<typeof startLiveStack>> | undefined;
let url: string;

beforeAll(async () => {
  stack = await startLiveStack();
  url = stack.web.url;
}, 120_000);

afterAll(() => stack?.stop());

type Named = { id: string; username: string };
const me = (page: WebClient) => page.user as Named;
const names = async (page: WebClient, ...people: WebClient[]) =>
  ((await page.api(`/api/profiles?ids=${people.map((p) => me(p).id).join(",")}`)) as { profiles: Named[] }).profiles
    .map((p) => p.username)
    .sort();

describe("the web app's routes that name people", () => {
  it("name channel-mates and a former one on their old messages, never a stranger; the look-up by username still finds one", async () => {
    const [alice, bob, dave, mallory] = [
      await signedInPage(url),
      await signedInPage(url),
      await signedInPage(url),
      await signedInPage(url),
    ];
    const channel = await createWebChannel(alice);
    await joinWebChannel(bob, channel);
    await joinWebChannel(dave, channel);
    await postWebMessage(dave, channel.id, "ciphertext");
    await dave.api(`/api/channels/${channel.id}/leave`, {});

    expect(await names(alice, bob, dave, mallory)).toEqual([me(bob).username, me(dave).username].sort());
    expect(await names(mallory, alice, bob, dave)).toEqual([]);
    const members = (await alice.api(`/api/channels/${channel.id}/members`)) as { members: { username: string }[] };
    expect(members.members.map((m) => m.username).sort()).toEqual([me(alice).username, me(bob).username].sort());

    const found = (await mallory.api("/api/people", { username: me(alice).username })) as { user: Named | null };
    expect(found.user).toEqual({ id: me(alice).id, username: me(alice).username });
    expect(((await mallory.api("/api/people")) as { people: Named[] }).people).toEqual([]);
  });
});

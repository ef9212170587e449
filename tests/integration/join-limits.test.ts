// Limits on failed channel joins (online guesses of a channel password) per account and per
// channel, in POST /api/chat/channels/join. The limit per client address is PocketBase's own rate
// limiter; tests/integration/web-server.test.ts checks it through the web server.

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  createChannel,
  fakePublicKey,
  joinChannel,
  postJson,
  randomVerifier,
  signUpUser,
  startPocketBase,
  type RunningPocketBase,
  type TestChannel,
  type TestUser,
} from "./pocketbase";

const TOO_MANY = "Too many attempts. Please wait a few minutes and try again.";

let server: RunningPocketBase;
let owner: TestUser;

beforeAll(async () => {
  server = await startPocketBase();
  owner = await signUpUser(server.url);
});

afterAll(async () => {
  await server?.stop();
});

const guess = (user: TestUser, channel: TestChannel) => joinChannel(user, { ...channel, verifier: randomVerifier() });

async function failTimes(user: TestUser, channel: TestChannel, times: number) {
  for (let i = 0; i < times; i++) {
    const res = await guess(user, channel);
    expect(res.status, `wrong guess ${i + 1}: ${res.text}`).toBe(403);
  }
}

function expectTooMany(res: { status: number; json: unknown; text: string }) {
  expect(res.status, res.text).toBe(429);
  expect((res.json as { message: string }).message).toBe(TOO_MANY);
}

describe("join attempts", () => {
  it("are limited to 10 failures per account in 10 minutes, on every channel, right verifier included", async () => {
    const guesser = await signUpUser(server.url);
    const [target, other] = [await createChannel(owner), await createChannel(owner)];

    await failTimes(guesser, target, 10);
    expectTooMany(await guess(guesser, target));
    expectTooMany(await joinChannel(guesser, target));
    expectTooMany(await joinChannel(guesser, other));

    // another account still joins the same channel
    const member = await signUpUser(server.url);
    expect((await joinChannel(member, target)).status).toBe(200);
  });

  it("are limited to 30 failures per channel in 10 minutes, from all accounts together", async () => {
    const target = await createChannel(owner);
    const guessers = [await signUpUser(server.url), await signUpUser(server.url), await signUpUser(server.url)];
    for (const guesser of guessers) {
      await failTimes(guesser, target, 10);
    }

    const newcomer = await signUpUser(server.url);
    // the channel's budget, spent by others: said as such (not the newcomer's own doing)
    const locked = await joinChannel(newcomer, target);
    expect([locked.status, (locked.json as { message: string }).message]).toEqual([
      429,
      "Too many wrong passwords were tried for this channel lately. Please wait a few minutes and try again, or join with an invite link.",
    ]);
    // the newcomer's own account is not limited: other channels still open
    expect((await joinChannel(newcomer, await createChannel(owner))).status).toBe(200);
    // and an invite link to the locked channel still lets them in (it carries the password: no guess)
    const made = await postJson(server.url, "/api/chat/invites", { channel_id: target.id }, owner.token);
    expect(made.status, made.text).toBe(200);
    const invited = await postJson(
      server.url,
      "/api/chat/channels/join",
      { channel_id: target.id, verifier: target.verifier, ecdh_public_key: fakePublicKey(), invite_id: (made.json as { id: string }).id },
      newcomer.token,
    );
    expect(invited.status, invited.text).toBe(200);
    // a bad or foreign invite is no way around the channel's budget
    const stranger = await signUpUser(server.url);
    const forged = await postJson(
      server.url,
      "/api/chat/channels/join",
      { channel_id: target.id, verifier: randomVerifier(), ecdh_public_key: fakePublicKey(), invite_id: "zzzzzzzzzzzzzzz" },
      stranger.token,
    );
    expect(forged.status).toBe(429);
  });

  it("with the right verifier do not count", async () => {
    const member = await signUpUser(server.url);
    const channel = await createChannel(owner);
    for (let i = 0; i < 40; i++) {
      const res = await joinChannel(member, channel);
      expect(res.status, `join ${i + 1}: ${res.text}`).toBe(200);
    }
    // nine failures stay below the account's limit
    await failTimes(member, channel, 9);
    expect((await joinChannel(member, channel)).status).toBe(200);
  });
});

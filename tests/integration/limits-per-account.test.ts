// An office behind one address (docs/decisions/0058-limits-per-account.md): signed-in requests are
// counted per account, not per address, so twenty colleagues on one router work undisturbed; guests'
// requests (sign-in guessing, sign-up) are still counted per address. PocketBase's limiter is on here
// for loopback, where the other test files exempt it.

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  client,
  createChannel,
  joinChannel,
  postMessage,
  signUpUser,
  startPocketBase,
  statusOf,
  superuserClient,
  type RunningPocketBase,
  type TestChannel,
  type TestUser,
} from "./pocketbase";

let server: RunningPocketBase;
let people: TestUser[];
let channels: TestChannel[];
// a second signed-in device (session) of people[2]
let secondDevice: TestUser;

beforeAll(async () => {
  // accounts and channels are made with loopback exempt, then the exemption ends
  server = await startPocketBase();
  const owner = await signUpUser(server.url);
  people = await Promise.all(Array.from({ length: 20 }, () => signUpUser(server.url)));
  channels = await Promise.all(Array.from({ length: 5 }, (_, i) => createChannel(owner, `office ${i}`)));
  for (const person of people) for (const channel of channels) expect((await joinChannel(person, channel)).status).toBe(200);
  secondDevice = await anotherSession(people[2]);
  const su = await superuserClient(server.url, server.superuser);
  await su.settings.update({ rateLimits: { excludedIPs: [] } });
}, 120_000);

afterAll(async () => {
  await server?.stop();
});

/** The same account signed in again: a session with a token of its own (tokens name their second). */
async function anotherSession(person: TestUser): Promise<TestUser> {
  for (;;) {
    const pb = client(server.url);
    await pb.collection("users").authWithPassword(person.email, person.password);
    if (pb.authStore.token !== person.token) return { ...person, pb, token: pb.authStore.token };
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

async function historyStatus(person: TestUser, channel: TestChannel) {
  const res = await fetch(`${server.url}/api/chat/history?channel=${channel.id}&limit=50`, { headers: { Authorization: person.token } });
  return res.status;
}

describe("limits for an office behind one address", () => {
  it("twenty people each send 10 messages and open 5 conversations within a minute: no 429", { timeout: 60_000 }, async () => {
    const started = Date.now();
    const statuses = (
      await Promise.all(
        people.map(async (person, i) => {
          const own: number[] = [];
          for (let n = 0; n < 10; n++) own.push(await statusOf(postMessage(person, channels[(i + n) % channels.length].id)));
          for (const channel of channels) own.push(await historyStatus(person, channel));
          return own;
        }),
      )
    ).flat();
    expect(Date.now() - started).toBeLessThan(60_000);
    expect(statuses).toHaveLength(20 * 15);
    expect(statuses.filter((status) => status !== 200)).toEqual([]);
  });

  it("one account that floods is still limited, and only that account", { timeout: 60_000 }, async () => {
    const [flooder, colleague] = people;
    const statuses: number[] = [];
    for (let n = 0; n < 30; n++) statuses.push(await statusOf(postMessage(flooder, channels[0].id)));
    expect(statuses).toContain(429);
    expect(await statusOf(postMessage(colleague, channels[0].id))).toBe(200);
  });

  // joins refill slowly (10 a minute): what one device used up is not back by the time the other asks
  it("a device that floods is limited, and the same person's other device is not", { timeout: 60_000 }, async () => {
    const person = people[2];
    const statuses: number[] = [];
    for (let n = 0; n < 15; n++) statuses.push((await joinChannel(person, channels[0])).status);
    expect(statuses.slice(0, 10).every((status) => status === 200)).toBe(true);
    expect(statuses.slice(10)).toContain(429);
    expect((await joinChannel(secondDevice, channels[0])).status).toBe(200);
  });

  it("sign-in guessing from the address is still limited", { timeout: 60_000 }, async () => {
    const statuses: number[] = [];
    for (let n = 0; n < 12; n++) {
      statuses.push(
        await statusOf(client(server.url).collection("users").authWithPassword(`nobody-${n}@example.test`, "wrong-password-1")),
      );
    }
    expect(statuses.slice(0, 10).every((status) => status === 400)).toBe(true);
    expect(statuses.slice(10)).toEqual([429, 429]);
  });
});

// An office behind one address, through the web server as browsers use it (docs/decisions/0058 and
// 0068): twenty signed-in people on one address send and read undisturbed, sign in again together and
// ten newcomers sign up together, while sign-in guessing from that address and one account's flood are
// still refused, with a 429 and its words (never a 502).

import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  createChannel,
  joinChannel,
  signUpUser,
  startPocketBase,
  superuserClient,
  type RunningPocketBase,
  signupBody,
  type TestChannel,
  type TestUser,
} from "./pocketbase";
import { postWebMessage, startWeb, type WebClient, type WebServer } from "./live-pages";
import { signedInClient } from "./web-session";
import { WebClient as Browser } from "../../bench/lib/web-client.mjs";
import { ensureWebBuilt } from "./web";

let pb: RunningPocketBase;
let web: WebServer;
let office: WebClient[];
let people: TestUser[];
let channels: TestChannel[];

const statusOf = (work: Promise<unknown>) =>
  work.then(
    () => 200,
    (error: { status?: number }) => error.status ?? 0,
  );

beforeAll(async () => {
  await ensureWebBuilt();
  // accounts, channels and sign-ins are made with loopback exempt, then the exemption ends
  pb = await startPocketBase();
  web = await startWeb(pb.url);
  const owner = await signUpUser(pb.url);
  people = await Promise.all(Array.from({ length: 20 }, () => signUpUser(pb.url)));
  channels = await Promise.all(Array.from({ length: 5 }, (_, i) => createChannel(owner, `office ${i}`)));
  for (const person of people) for (const channel of channels) expect((await joinChannel(person, channel)).status).toBe(200);
  office = await Promise.all(people.map((person) => signedInClient(web.url, person)));
  const su = await superuserClient(pb.url, pb.superuser);
  await su.settings.update({ rateLimits: { excludedIPs: [] } });
}, 180_000);

afterAll(async () => {
  await web?.stop();
  await pb?.stop();
});

describe("an office behind one address, through the web server", () => {
  it("twenty people each send 10 messages and open 5 conversations within a minute: no 429", { timeout: 90_000 }, async () => {
    const started = Date.now();
    const statuses = (
      await Promise.all(
        office.map(async (browser, i) => {
          const own: number[] = [];
          for (let n = 0; n < 10; n++) own.push(await statusOf(postWebMessage(browser, channels[(i + n) % channels.length].id, `m${n}`)));
          for (const channel of channels) own.push(await statusOf(browser.api(`/api/channels/${channel.id}/messages?limit=50`)));
          return own;
        }),
      )
    ).flat();
    expect(Date.now() - started).toBeLessThan(60_000);
    expect(statuses).toHaveLength(20 * 15);
    expect(statuses.filter((status) => status !== 200)).toEqual([]);
  });

  it("one account that floods gets 429 with its words, and its colleague does not", { timeout: 60_000 }, async () => {
    const [flooder, colleague] = office;
    const refusals: { status: number; message: string }[] = [];
    for (let n = 0; n < 40 && refusals.length === 0; n++) {
      await postWebMessage(flooder, channels[0].id, `flood ${n}`).catch((error: { status: number; message: string }) =>
        refusals.push({ status: error.status, message: error.message }),
      );
    }
    expect(refusals[0]).toEqual({ status: 429, message: "You are sending messages too quickly. Please wait a moment." });
    expect(await statusOf(postWebMessage(colleague, channels[0].id, "still here"))).toBe(200);
  });

  it("a page of history refused for too many requests is a 429 with its words, never a 500", { timeout: 60_000 }, async () => {
    const reader = office[3];
    let refused: { status: number; message: string } | undefined;
    for (let n = 0; n < 200 && !refused; n++) {
      await reader.api(`/api/channels/${channels[1].id}/messages?limit=1`).catch((error: { status: number; message: string }) => {
        refused = { status: error.status, message: error.message };
      });
    }
    expect(refused).toEqual({ status: 429, message: "Too many requests from this device. Please wait a moment." });
  });

  it("the page's reads, each asked until refused, answer 429 and never a 5xx", { timeout: 180_000 }, async () => {
    const reader = office[4];
    const channel = channels[2].id;
    const routes = [
      `/api/channels/${channel}/members`,
      `/api/channels/${channel}/messages?limit=1`,
      `/api/channels/${channel}/pinned`,
      "/api/channels",
      "/api/unread",
      "/api/contacts",
      "/api/keyring",
      "/api/key-packages?device=abcdefgh12345678",
      "/api/notify-rules",
      "/api/direct/requests",
      "/api/auth/sessions",
      "/api/threads",
      "/api/pins",
    ];
    const refusals: Record<string, number> = {};
    // in bursts, so that the budget runs out within its window however slow one request is here
    for (const route of routes) {
      for (let burst = 0; burst < 20 && refusals[route] === undefined; burst++) {
        await Promise.all(
          Array.from({ length: 40 }, () => reader.api(route).catch((error: { status: number }) => (refusals[route] ??= error.status))),
        );
      }
    }
    expect(refusals).toEqual(Object.fromEntries(routes.map((route) => [route, 429])));
  });

  it("the whole office signs in again within the minute with its passwords: nobody is refused", { timeout: 60_000 }, async () => {
    const statuses = await Promise.all(
      people.map(async (person) => {
        const browser = new Browser(web.url);
        await browser.loadPage();
        return statusOf(browser.api("/api/auth/signin", { email: person.email, loginSecret: person.password }));
      }),
    );
    expect(statuses).toEqual(people.map(() => 200));
  });

  it(
    "ten newcomers sign up from the office within the minute; the eleventh is told to wait, in the product's words",
    { timeout: 60_000 },
    async () => {
      const signUp = async () => {
        const b = signupBody();
        const browser = new Browser(web.url);
        await browser.loadPage();
        return browser
          .api("/api/auth/signup", {
            id: b.id,
            email: b.email,
            loginSecret: b.password,
            username: b.username,
            ecdhPublicKey: b.ecdh_public_key,
            rsaPublicKey: b.rsa_public_key,
            encryptedEcdhPrivateKey: b.encrypted_ecdh_private_key,
            encryptedRsaPrivateKey: b.encrypted_rsa_private_key,
            kdfIterations: b.kdf_iterations,
          })
          .then(
            () => ({ status: 200, message: "" }),
            (error: { status: number; message: string }) => ({ status: error.status, message: error.message }),
          );
      };
      const answers = [];
      for (let n = 0; n < 11; n++) answers.push(await signUp());
      expect(answers.slice(0, 10).map((a) => a.status)).toEqual(Array(10).fill(200));
      // PocketBase's own limiter ("Too Many Requests.") in the product's words
      expect(answers[10]).toEqual({ status: 429, message: "Too many requests. Please wait a moment." });
    },
  );

  it("sign-in guessing from the address is still limited", { timeout: 60_000 }, async () => {
    const guesser = new Browser(web.url);
    await guesser.loadPage();
    const statuses: number[] = [];
    for (let n = 0; n < 12; n++) {
      statuses.push(
        await statusOf(
          guesser.api("/api/auth/signin", { email: `nobody-${n}@example.test`, loginSecret: randomBytes(32).toString("base64url") }),
        ),
      );
    }
    expect(statuses.slice(0, 10).filter((status) => status === 429)).toEqual([]);
    expect(statuses.slice(10)).toEqual([429, 429]);
    // and says why
    const refused = await guesser
      .api("/api/auth/signin", { email: "nobody@example.test", loginSecret: randomBytes(32).toString("base64url") })
      .then(
        () => null,
        (error: { status: number; message: string }) => ({ status: error.status, message: error.message }),
      );
    expect(refused).toEqual({ status: 429, message: "Too many wrong passwords from this network; try again in 1 minute." });
  });
});

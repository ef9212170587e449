// Account > Devices against the real stack (our PocketBase, the production web server): the sessions
// recorded at sign-up and sign-in with their browser and system, listed to their owner only, and
// another device signed out at once (its next request refused, its live stream closed).

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listen, startLiveStack } from "./live-pages";
import { WebClient } from "./web-session";
import { client, fakePublicKey, randomSecret, randomUserId, superuserClient } from "./pocketbase";

const CHROME_LINUX = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36";
const FIREFOX_MAC = "Mozilla/5.0 (Macintosh; Intel Mac OS X 14.5; rv:128.0) Gecko/20100101 Firefox/128.0";
const SAFARI_IPHONE =
  "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1";
const ENDED = "Your session has ended. Please sign in again.";

interface Session {
  id: string;
  agent: string;
  firstSeen: string;
  lastSeen: string;
  current: boolean;
}
interface Account {
  id: string;
  email: string;
  loginSecret: string;
}

let stack: Awaited<ReturnType<typeof startLiveStack>>;
beforeAll(async () => {
  stack = await startLiveStack();
}, 240_000);
afterAll(async () => {
  await stack?.stop();
});

async function signUp(userAgent: string): Promise<[WebClient, Account]> {
  const page = new WebClient(stack.web.url);
  await page.loadPage();
  const id = randomUserId();
  const account = { id, email: `dev-${id}@example.test`, loginSecret: randomSecret() };
  await page.api(
    "/api/auth/signup",
    {
      ...account,
      username: `dev_${id.slice(0, 10)}`,
      ecdhPublicKey: fakePublicKey(),
      rsaPublicKey: fakePublicKey(),
      encryptedEcdhPrivateKey: "w".repeat(200),
      encryptedRsaPrivateKey: "w".repeat(200),
      kdfIterations: 600_000,
    },
    { headers: { "User-Agent": userAgent } },
  );
  return [page, account];
}

async function signIn(account: Account, userAgent: string): Promise<WebClient> {
  const page = new WebClient(stack.web.url);
  await page.loadPage();
  await page.api("/api/auth/signin", { email: account.email, loginSecret: account.loginSecret }, { headers: { "User-Agent": userAgent } });
  return page;
}

const sessionsOf = async (page: WebClient) => ((await page.api("/api/auth/sessions")) as { sessions: Session[] }).sessions;

/** The status and message of a call that must fail. */
async function refusal(call: Promise<unknown>): Promise<[number, string]> {
  try {
    await call;
  } catch (error) {
    const { status, message } = error as { status: number; message: string };
    return [status, message];
  }
  throw new Error("the call succeeded");
}

describe("devices", () => {
  it("records each sign-up and sign-in with its browser and system, lists them to their owner only, this one marked", async () => {
    const started = Date.now();
    const [laptop, account] = await signUp(CHROME_LINUX);
    const phone = await signIn(account, SAFARI_IPHONE);
    const [bobPage] = await signUp(FIREFOX_MAC);

    const seen = await sessionsOf(laptop);
    expect(seen.map((s) => [s.agent, s.current])).toEqual([
      ["Chrome on Linux", true],
      ["Safari on iOS", false],
    ]);
    for (const s of seen) {
      expect(Date.parse(s.firstSeen)).toBeGreaterThanOrEqual(started - 2_000);
      expect(Date.parse(s.lastSeen)).toBeGreaterThanOrEqual(Date.parse(s.firstSeen));
    }
    expect((await sessionsOf(phone)).filter((s) => s.current).map((s) => s.agent)).toEqual(["Safari on iOS"]);
    // Bob sees his one session only, and can neither see nor sign out Alice's
    const bobs = await sessionsOf(bobPage);
    expect(bobs.map((s) => [s.agent, s.current])).toEqual([["Firefox on macOS", true]]);
    const phoneId = seen.find((s) => !s.current)!.id;
    expect(await refusal(bobPage.api(`/api/auth/sessions/${phoneId}/revoke`, {}))).toEqual([404, "This device is not signed in."]);
    expect(await sessionsOf(phone)).toHaveLength(2);

    // PocketBase's own API: owner-only rules, the token hash hidden, no writes
    const bob = client(stack.pb.url);
    bob.authStore.save(bobPage.pocketBaseToken(), null);
    expect((await bob.collection("sessions").getFullList()).map((r) => r.id)).toEqual([bobs[0].id]);
    await expect(bob.collection("sessions").getOne(phoneId)).rejects.toMatchObject({ status: 404 });
    const own = await bob.collection("sessions").getOne(bobs[0].id);
    expect(own.token_hash).toBeUndefined();
    expect(own.agent).toBe("Firefox on macOS");
    await expect(bob.collection("sessions").update(bobs[0].id, { agent: "Edge on Windows" })).rejects.toMatchObject({ status: 403 });
    await expect(bob.collection("sessions").delete(bobs[0].id)).rejects.toMatchObject({ status: 403 });
    await expect(
      bob.collection("sessions").create({
        user: account.id,
        token_hash: "0".repeat(64),
        agent: "x",
        first_seen: new Date(),
        last_seen: new Date(),
        expires: new Date(),
      }),
    ).rejects.toMatchObject({ status: 403 });
    // and the page's answers never carry a token hash
    expect(JSON.stringify(seen)).not.toMatch(/[0-9a-f]{64}/);
  });

  it("signing another device out refuses its next request at once and closes its live stream", async () => {
    const [laptop, account] = await signUp(CHROME_LINUX);
    const phone = await signIn(account, FIREFOX_MAC);
    const phoneStream = await listen(phone);
    // a yes remembered by the web server for the phone's session must not outlive the sign-out
    await phone.api("/api/unread");
    const phoneId = (await sessionsOf(laptop)).find((s) => !s.current)!.id;

    await laptop.api(`/api/auth/sessions/${phoneId}/revoke`, {});
    await expect.poll(() => phoneStream.ended(), { timeout: 5_000 }).toBe(true);
    expect(await refusal(phone.api("/api/unread"))).toEqual([401, ENDED]);
    expect(await refusal(phone.api("/api/auth/sessions"))).toEqual([401, ENDED]);
    const again = await fetch(`${stack.web.url}/api/events`, { headers: { Cookie: phone.cookieHeader() } });
    expect(again.status).toBe(401);
    expect((await sessionsOf(laptop)).map((s) => s.agent)).toEqual(["Chrome on Linux"]);
    // The laptop's own session is not signed out here (Sign out does that); a signed-out one is gone.
    const laptopId = (await sessionsOf(laptop))[0].id;
    expect(await refusal(laptop.api(`/api/auth/sessions/${laptopId}/revoke`, {}))).toEqual([
      400,
      "This is the device you are using: use Sign out instead.",
    ]);
    expect(await refusal(laptop.api(`/api/auth/sessions/${phoneId}/revoke`, {}))).toEqual([404, "This device is not signed in."]);
    // Signing out the usual way ends the session's row too.
    const tablet = await signIn(account, SAFARI_IPHONE);
    await tablet.api("/api/auth/signout", {});
    expect((await sessionsOf(laptop)).map((s) => s.agent)).toEqual(["Chrome on Linux"]);
  });

  it("refuses bad ids, anonymous callers and wrong methods with clear 4xx answers", async () => {
    const [laptop] = await signUp(CHROME_LINUX);
    for (const id of ["a..b", "AAAAAAAAAAAAAAA", "x".repeat(300), "%00", "abcdefghijklmno"]) {
      const [status, message] = await refusal(laptop.api(`/api/auth/sessions/${id}/revoke`, {}));
      expect([400, 404], id).toContain(status);
      expect(message.length).toBeGreaterThan(3);
    }
    const anonymous = new WebClient(stack.web.url);
    await anonymous.loadPage();
    expect((await refusal(anonymous.api("/api/auth/sessions")))[0]).toBe(401);
    expect((await refusal(anonymous.api("/api/auth/sessions/abcdefghijklmno/revoke", {})))[0]).toBe(401);
    const [wrongMethod] = await refusal(laptop.api("/api/auth/sessions/abcdefghijklmno/revoke"));
    expect(wrongMethod >= 400 && wrongMethod < 500, String(wrongMethod)).toBe(true);
    const direct = await fetch(`${stack.pb.url}/api/chat/sessions`);
    expect(direct.status).toBe(401);
  });

  it("writes last seen at most once a minute, and gives a token used without a row (issued before) one at its first request", async () => {
    const [laptop, account] = await signUp(CHROME_LINUX);
    const [first] = await sessionsOf(laptop);
    await laptop.api("/api/unread");
    await laptop.api("/api/unread");
    expect((await sessionsOf(laptop))[0].lastSeen).toBe(first.lastSeen);

    // As if the session had been issued before sessions were recorded: no row, and a PocketBase that
    // has not seen the token since it started.
    const admin = await superuserClient(stack.pb.url, stack.pb.superuser);
    const rows = await admin.collection("sessions").getFullList({ filter: `user = "${account.id}"` });
    for (const row of rows) await admin.collection("sessions").delete(row.id);
    await stack.pb.restart();
    const direct = client(stack.pb.url);
    direct.authStore.save(laptop.pocketBaseToken(), null);
    await direct.send("/api/chat/session", { method: "GET" });
    const again = await sessionsOf(laptop);
    expect(again.map((s) => [s.agent, s.current])).toEqual([["Unknown browser", true]]);
  });
});

// PocketBase believes the browser's address (X-Forwarded-For), its device (X-ChatCrypt-Device) and
// its summary (X-ChatCrypt-Agent) only from the web server, which proves the secret both share
// (pocketbase/proxy_secret.go, docs/decisions/0069-what-reaches-pocketbase-directly.md). Raw requests
// straight to the PocketBase we build, its rate limiter on.

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { proxyHeaders } from "../../scripts/lib/pocketbase.mjs";
import { signUpUser, startPocketBase, type RunningPocketBase, type TestUser } from "./pocketbase";
import type { AuditPage } from "./audit-stack";

let pb: RunningPocketBase;
/** Without PocketBase's limit per address, so that only the per-account and per-device counters answer. */
let unlimited: RunningPocketBase;
let owner: TestUser;
let carol: TestUser;

beforeAll(async () => {
  [pb, unlimited] = await Promise.all([startPocketBase({ rateLimits: true }), startPocketBase()]);
  owner = await signUpUser(pb.url);
  carol = await signUpUser(pb.url);
}, 120_000);

afterAll(async () => {
  await Promise.all([pb?.stop(), unlimited?.stop()]);
});

const signIn = (identity: string, password: string, headers: Record<string, string>, url = pb.url) =>
  fetch(`${url}/api/collections/users/auth-with-password`, {
    method: "POST",
    headers: { "Content-Type": "application/json", ...headers },
    body: JSON.stringify({ identity, password }),
  });

/** Wrong-password sign-ins to different accounts (so no account's own limit is met), each from the "address" given. */
async function guesses(count: number, headers: (i: number) => Record<string, string>): Promise<number[]> {
  const statuses: number[] = [];
  for (let i = 0; i < count; i++) {
    const answer = await signIn(`nobody-${Date.now()}-${i}@example.test`, "not the password", headers(i));
    await answer.text();
    statuses.push(answer.status);
  }
  return statuses;
}

const auditEntries = async (action: string, actor: string) => {
  const answer = await fetch(`${pb.url}/api/chat/admin/audit`, { headers: { Authorization: owner.token } });
  expect(answer.status).toBe(200);
  const page = (await answer.json()) as AuditPage;
  return page.items.filter((entry) => entry.action === action && entry.actor === actor);
};

describe("headers only the web server may set", () => {
  // first: the guesses below use up the loopback address's sign-in budget
  it("the audit log records the address the request came from unless the web server vouches for another", async () => {
    const direct = await signIn(carol.email, carol.password, { ...proxyHeaders(), "X-Forwarded-For": "203.0.113.90" });
    expect(direct.status).toBe(200);
    expect((await auditEntries("signin.succeeded", carol.id))[0].ip).toBe("203.0.113.90");

    const forged = await signIn(carol.email, carol.password, {
      ...proxyHeaders("another secret"),
      "X-Forwarded-For": "198.51.100.77",
      "X-ChatCrypt-Agent": "Forged on Nothing",
    });
    expect(forged.status).toBe(200);
    const [latest] = await auditEntries("signin.succeeded", carol.id);
    expect(latest.ip).toBe("127.0.0.1");
    expect(latest.device).not.toBe("Forged on Nothing");
  });

  it("a forged X-Forwarded-For does not change the rate-limit key: all guesses count under the real address", async () => {
    // PocketBase's sign-in rule: 10 a minute per address (the sign-in above used one of loopback's)
    const forged = await guesses(11, (i) => ({ "X-Forwarded-For": `198.51.100.${i + 1}` }));
    expect(forged.slice(0, 9)).toEqual(new Array(9).fill(400));
    expect(forged.at(-1)).toBe(429);
    // a forged proof is no proof
    const badProof = await guesses(1, () => ({ "X-ChatCrypt-Proxy": "0".repeat(64), "X-Forwarded-For": "198.51.100.200" }));
    expect(badProof).toEqual([429]);
  });

  it("with the web server's proof, each forwarded address has its own budget", async () => {
    const proved = await guesses(11, (i) => ({ ...proxyHeaders(), "X-Forwarded-For": `203.0.113.${i + 1}` }));
    expect(proved).toEqual(new Array(11).fill(400));
  });

  // A device that signed in before has its own budget of guesses (pb_hooks/lib/signin.js), so a guesser
  // elsewhere cannot lock its owner out. Only the web server may say which device a request comes from.
  it("a forged X-ChatCrypt-Device does not get its own budget: its guesses count against the account", async () => {
    const device = "forged0device0id0123456789";
    const tenWrong = async (email: string, headers: Record<string, string>) => {
      for (let i = 0; i < 10; i++) {
        const answer = await signIn(email, "not the password", headers, unlimited.url);
        expect(answer.status).toBe(400);
        await answer.text();
      }
    };
    const withoutDevice = async (email: string) => {
      const answer = await signIn(email, "not the password", {}, unlimited.url);
      return { status: answer.status, message: ((await answer.json()) as { message: string }).message };
    };
    // without the web server's proof the header is removed: ten guesses use up the account's own budget
    const forgedFor = `forged-${Date.now()}@example.test`;
    await tenWrong(forgedFor, { "X-ChatCrypt-Device": device });
    const afterForged = await withoutDevice(forgedFor);
    expect(afterForged.status).toBe(429);
    expect(afterForged.message).toMatch(/^Too many attempts for this account; try again in \d+ minutes?\.$/);
    // with the proof the device has its own counter: the account's budget is untouched
    const provedFor = `proved-${Date.now()}@example.test`;
    await tenWrong(provedFor, { ...proxyHeaders(), "X-ChatCrypt-Device": device });
    expect((await withoutDevice(provedFor)).status).toBe(400);
  });
});

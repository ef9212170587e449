// Hostile input against the real stack (server.mjs on the built app, our PocketBase): every route of
// the web app and every PocketBase server function gets wrong methods (TRACE, PROPFIND, ...),
// chunked oversize bodies, garbage JSON, wrong types, huge strings, NUL and lone surrogates,
// traversal ids, filter-injection strings, prototype keys, bad cookies and CSRF variants. Every
// answer must be a 4xx with a readable message, never a 5xx, and the web server must not grow.

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { WebServer } from "../e2e/stack";
import { cases } from "./hostile-cases";
import { GET_ROUTES, validBodies } from "./hostile-inputs";
import { startPocketBase, type RunningPocketBase } from "./pocketbase";
import { pocketBaseToken, problem, sendCase } from "./hostile-run";
import { rawRequest, rssMb, startWebFor, Visitor } from "./web";

let pb: RunningPocketBase;
let web: WebServer;
let alice: Visitor;
let bob: Visitor;
let channelId: string;
let aliceToken: string;
let bobToken: string;

beforeAll(async () => {
  // single sign-on set up (a provider nobody runs: hostile requests never get as far as asking it)
  pb = await startPocketBase({ env: { OIDC_ISSUER: "http://127.0.0.1:9/", OIDC_CLIENT_ID: "hostile" } });
  web = await startWebFor(pb.url);
  [alice, bob] = [new Visitor(web.url), new Visitor(web.url)];
  const [account, bobAccount] = [await alice.signUp(), await bob.signUp()];
  channelId = (await alice.createChannel("Hostile")).id;
  [aliceToken, bobToken] = [await pocketBaseToken(pb.url, account), await pocketBaseToken(pb.url, bobAccount)];
}, 240_000);

afterAll(async () => {
  await web?.stop();
  await pb?.stop();
});

const webRssMb = () => rssMb(web.pid());

// ---- the run -----------------------------------------------------------------------------------

describe("hostile input", () => {
  it("every hostile request gets a clear 4xx, never a 5xx, and the web server does not grow", async () => {
    const all = cases({ channelId, alice, bob, aliceToken, bobToken });
    expect(all.length).toBeGreaterThanOrEqual(2_000);
    const failures: string[] = [];
    let fiveHundreds = 0;
    let sent = 0;
    let next = 0;
    const started = Date.now();
    const worker = async () => {
      while (next < all.length) {
        const c = all[next++];
        sent++;
        const answer = await sendCase(c, { web: web.url, pb: pb.url });
        if (answer.status >= 500) fiveHundreds++;
        const wrong = answer.status === -1 ? answer.text : problem(c, answer);
        if (wrong) failures.push(`${c.label}: ${wrong} (${answer.status} ${answer.text.slice(0, 100)})`);
      }
    };
    // Four passes. The first three also size V8's heap for this load: the web server's RSS grows in
    // them and then stays, swinging by about 50 MB from pass to pass as it collects (measured over seven
    // passes with the profile cards' 200 KB bodies among the cases: 117 MB at the start, 260 after two
    // passes, then 305, 309, 301, 259: a plateau, not a leak). The last pass must not take the server
    // more than 50 MB above the highest it reached while warming up: a leak or an unbounded buffer would
    // (reading a 100 MB chunked body whole once added 164 MB). The highest is read twice a second
    // through the warm-up: read only between passes, it once caught every pass just after a collection
    // (177 MB at most, where the plateau was 268).
    const rssStart = webRssMb();
    let rssBefore = rssStart;
    const sampler = setInterval(() => (rssBefore = Math.max(rssBefore, webRssMb())), 500);
    for (let warmUp = 0; warmUp < 3; warmUp++) {
      next = 0;
      await Promise.all(Array.from({ length: 6 }, worker));
      await new Promise((r) => setTimeout(r, 500));
      rssBefore = Math.max(rssBefore, webRssMb());
    }
    clearInterval(sampler);
    next = 0;
    await Promise.all(Array.from({ length: 6 }, worker));
    const seconds = (Date.now() - started) / 1000;
    await new Promise((r) => setTimeout(r, 500));
    const rssAfter = webRssMb();
    console.log(
      `hostile requests: ${sent} sent, ${fiveHundreds} 5xx (${seconds.toFixed(1)} s; web server RSS ${rssStart.toFixed(0)} MB at the start, ` +
        `${rssBefore.toFixed(0)} MB at most in three passes, ${rssAfter.toFixed(0)} MB after the fourth)`,
    );
    expect(sent).toBeGreaterThanOrEqual(10_000);
    expect(failures.slice(0, 40)).toEqual([]);
    expect(fiveHundreds).toBe(0);
    expect(rssAfter - rssBefore).toBeLessThan(50);

    // and both servers still work
    expect((await alice.post(`/api/channels/${channelId}/messages`, { encryptedContent: "c3RpbGwgaGVyZQ==" })).status).toBe(200);
    expect((await fetch(`${pb.url}/api/health`)).status).toBe(200);
    // (about 47,000 requests: some 50 s on an idle two-core machine, several minutes beside other work;
    // the limit only stops a hung run)
  }, 600_000);

  it("OPTIONS answers without running a loader, on every route", async () => {
    for (const path of [...GET_ROUTES(channelId), ...Object.keys(validBodies(channelId))]) {
      const answer = await rawRequest(web.url, { method: "OPTIONS", path, headers: { Cookie: alice.cookieHeader() }, timeoutMs: 3_000 });
      expect(answer.status, path).toBe(204);
      expect(answer.text, path).toBe("");
    }
  });
});

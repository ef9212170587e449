// The prototype-name sweep (issue 47): every name of Object.prototype wherever a request names
// something, on every route of the web app and of PocketBase's server functions
// (hostile-prototype.ts): 0 5xx, 0 resets, nothing of the server's internals in an answer.

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { WebServer } from "../e2e/stack";
import { PROTOTYPE_NAMES, prototypeCases } from "./hostile-prototype";
import { sendCase, startSweepStack } from "./hostile-run";
import type { RunningPocketBase } from "./pocketbase";
import type { Visitor } from "./web";

let pb: RunningPocketBase;
let web: WebServer;
let alice: Visitor;
let channelId: string;
let aliceToken: string;

beforeAll(async () => {
  ({ pb, web, alice, channelId, aliceToken } = await startSweepStack("Prototype names"));
}, 240_000);

afterAll(async () => {
  await web?.stop();
  await pb?.stop();
});

describe("prototype names", () => {
  it("in every route, as ids, paths, query parameters and body keys: 0 5xx, 0 resets", async () => {
    const all = prototypeCases({ channelId, alice, aliceToken });
    expect(PROTOTYPE_NAMES).toEqual(expect.arrayContaining(["constructor", "__proto__", "toString", "hasOwnProperty"]));
    const failures: string[] = [];
    const statuses = new Map<number, number>();
    let next = 0;
    const worker = async () => {
      while (next < all.length) {
        const c = all[next++];
        const answer = await sendCase(c, { web: web.url, pb: pb.url });
        statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
        if (answer.status >= 500 || answer.status <= 0) failures.push(`${c.label}: ${answer.status} ${answer.text.slice(0, 100)}`);
        else if (/at \w+ \(|node_modules|goroutine|\.go:\d+|TypeError|ReferenceError/.test(answer.text))
          failures.push(`${c.label}: leaks internals: ${answer.text.slice(0, 100)}`);
      }
    };
    await Promise.all(Array.from({ length: 4 }, worker));
    const fiveHundreds = [...statuses].filter(([status]) => status >= 500).reduce((sum, [, n]) => sum + n, 0);
    console.log(
      `prototype-name sweep: ${all.length} requests, ${fiveHundreds} 5xx, answers ${JSON.stringify(Object.fromEntries(statuses))}`,
    );
    expect(failures).toEqual([]);
    // and both servers still work
    expect((await alice.post(`/api/channels/${channelId}/messages`, { encryptedContent: "c3RpbGwgaGVyZQ==" })).status).toBe(200);
    expect((await fetch(`${pb.url}/api/health`)).status).toBe(200);
  }, 300_000);
});

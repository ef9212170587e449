// Oversize bodies on every route (issue 47): the hostile suite's oversize requests alone
// (hostile-oversize.ts), each answered 413 "Request is too large." (or PocketBase's own 413),
// chunked or declared, signed in or not, never a reset; the web server and PocketBase work after.

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { WebServer } from "../e2e/stack";
import { oversizeCases } from "./hostile-oversize";
import { problem, sendCase, startSweepStack } from "./hostile-run";
import type { RunningPocketBase } from "./pocketbase";
import type { Visitor } from "./web";

let pb: RunningPocketBase;
let web: WebServer;
let alice: Visitor;
let channelId: string;
let aliceToken: string;

beforeAll(async () => {
  ({ pb, web, alice, channelId, aliceToken } = await startSweepStack("Oversize"));
}, 240_000);

afterAll(async () => {
  await web?.stop();
  await pb?.stop();
});

describe("oversize bodies", () => {
  it("every route answers 413 to a body larger than it takes, chunked or declared, before the session check where it takes none", async () => {
    const all = oversizeCases({ channelId, alice, aliceToken, everyServerFunction: true });
    const failures: string[] = [];
    const statuses = new Map<number, number>();
    let next = 0;
    const worker = async () => {
      while (next < all.length) {
        const c = all[next++];
        const answer = await sendCase(c, { web: web.url, pb: pb.url });
        statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
        const wrong = answer.status === -1 ? answer.text : problem(c, answer);
        if (wrong) failures.push(`${c.label}: ${wrong} (${answer.status} ${answer.text.slice(0, 80)})`);
        else if (c.target === "web" && c.status === 413) {
          const message = (answer.json as { message?: string } | undefined)?.message;
          if (message !== "Request is too large.") failures.push(`${c.label}: said ${JSON.stringify(message)}`);
        }
      }
    };
    await Promise.all(Array.from({ length: 4 }, worker));
    console.log(`oversize bodies: ${all.length} requests, answers ${JSON.stringify(Object.fromEntries(statuses))}`);
    expect(failures).toEqual([]);
    expect((await alice.post(`/api/channels/${channelId}/messages`, { encryptedContent: "c3RpbGwgaGVyZQ==" })).status).toBe(200);
    expect((await fetch(`${pb.url}/api/health`)).status).toBe(200);
  }, 300_000);
});

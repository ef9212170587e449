// A direct conversation is never called a channel (issue 45, item 6; ADR 0050), not even in the
// server's answers: someone who is not (or no longer) in a DM is told "You are not a member of this
// conversation." when they send or mark it read, and a member who asks for a message of another
// conversation around it is told "That message is not in this conversation." (The server answers a
// non-member the same words for a channel: it does not say which kind an id it refuses is.)
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { WebServer } from "../e2e/stack";
import { startPocketBase, type RunningPocketBase } from "./pocketbase";
import { startWebFor, Visitor } from "./web";

let pb: RunningPocketBase;
let web: WebServer;
let alice: Visitor;
let bob: Visitor;
let dm: string;

const message = (json: unknown) => (json as { message: string }).message;

beforeAll(async () => {
  pb = await startPocketBase();
  web = await startWebFor(pb.url);
  alice = new Visitor(web.url);
  bob = new Visitor(web.url);
  await alice.signUp();
  await bob.signUp();
  // a stranger's DM: Bob is asked, not yet a member (ADR 0052)
  dm = randomUUID();
  const started = await alice.post("/api/direct", { id: dm, participants: [bob.userId] });
  expect(started.status, started.text).toBe(200);
}, 240_000);

afterAll(async () => {
  await web?.stop();
  await pb?.stop();
});

describe("a direct conversation's server answers say conversation", () => {
  it("a send and a read mark from someone not in it: 403, not a member of this conversation", async () => {
    const sent = await bob.post(`/api/channels/${dm}/messages`, { encryptedContent: "aGVsbG8=", clientId: randomUUID(), epoch: 1 });
    expect(sent.status, sent.text).toBe(403);
    expect(message(sent.json)).toBe("You are not a member of this conversation.");
    const read = await bob.post(`/api/channels/${dm}/read`, { at: "2026-11-29 10:00:00.000Z" });
    expect(read.status, read.text).toBe(403);
    expect(message(read.json)).toBe("You are not a member of this conversation.");
  });

  it("a member's message answering something not in the conversation: 400 in words, not a member's refusal", async () => {
    const other = await alice.createChannel("Answers");
    for (const body of [
      { kind: "reaction", targetId: "zzzzzzzzzzzzzzz" },
      { kind: "reply", thread: "zzzzzzzzzzzzzzz" },
    ]) {
      const sent = await alice.post(`/api/channels/${other.id}/messages`, {
        encryptedContent: "aGVsbG8=",
        clientId: randomUUID(),
        ...body,
      });
      expect([JSON.stringify(body), sent.status]).toEqual([JSON.stringify(body), 400]);
      expect(message(sent.json)).toBe(
        "The message was refused: what it reacts to, edits, pins or replies to is not in this conversation, or it is not a valid message.",
      );
    }
  });

  it("a member asking for the messages around another conversation's message: 404, not in this conversation", async () => {
    const other = await alice.createChannel("Elsewhere");
    const posted = await alice.post(`/api/channels/${other.id}/messages`, { encryptedContent: "aGVsbG8=", clientId: randomUUID() });
    expect(posted.status, posted.text).toBe(200);
    const id = (posted.json as { message: { id: string } }).message.id;
    const around = await alice.send({ path: `/api/channels/${dm}/messages?around=${id}` });
    expect(around.status, around.text).toBe(404);
    expect(message(around.json)).toBe("That message is not in this conversation.");
  });
});

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createWebChannel, signedInPage, startLiveStack, type WebServer } from "./live-pages";

// The search backfill's progress figure ("Indexed 12,400 of 15,000 messages") takes its total from the
// first page of history: `count=1` adds the channel's number of messages, edits and reactions left out.
let web: WebServer;
let stack: Awaited<ReturnType<typeof startLiveStack>> | undefined;

beforeAll(async () => {
  stack = await startLiveStack();
  web = stack.web;
});

afterAll(() => stack?.stop());

describe("a page of history with count=1", () => {
  it("carries the channel's number of messages, and only when asked", async () => {
    const alice = await signedInPage(web.url);
    const channel = await createWebChannel(alice);
    const path = `/api/channels/${channel.id}/messages`;
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push((await alice.api(path, { encryptedContent: `m${i}`, senderPublicKey: "" })).message.id);
    await alice.api(path, { encryptedContent: "edit", senderPublicKey: "", kind: "edit", targetId: ids[0] });
    await alice.api(path, { encryptedContent: "reaction", senderPublicKey: "", kind: "reaction", targetId: ids[1] });

    const counted = await alice.api(`${path}?limit=2&count=1`);
    expect(counted.totalItems).toBe(5);
    expect(counted.hasMore).toBe(true);
    expect(counted.messages.filter((m: { kind?: string }) => !m.kind)).toHaveLength(2);
    const plain = await alice.api(`${path}?limit=2`);
    expect(plain).not.toHaveProperty("totalItems");
  });

  it("refuses any other value of count with a clear 400", async () => {
    const alice = await signedInPage(web.url);
    const channel = await createWebChannel(alice);
    for (const bad of ["0", "yes", "2"]) {
      const error = await alice
        .api(`/api/channels/${channel.id}/messages?count=${bad}`)
        .catch((e: { status: number; message: string }) => e);
      expect(error).toMatchObject({ status: 400, message: "Invalid message page." });
    }
  });
});

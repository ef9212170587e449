// The export of what the server holds about an account (pb_hooks/account_data.pb.js), against a real
// PocketBase: only the caller's own data, an archive's size but never its ciphertext.
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  createChannel,
  fakeCiphertext,
  joinChannel,
  postJson,
  postMessage,
  signUpUser,
  startPocketBase,
  superuserClient,
  type RunningPocketBase,
  type TestUser,
} from "./pocketbase";

let pb: RunningPocketBase;

beforeAll(async () => {
  pb = await startPocketBase();
});

afterAll(async () => {
  await pb?.stop();
});

const admin = () => superuserClient(pb.url, pb.superuser);
const call = (route: string, body: unknown, user?: TestUser) => postJson(pb.url, route, body, user?.token);

describe("exporting the account's data", () => {
  it("lists what the server holds about the caller, and only the caller", async () => {
    const alice = await signUpUser(pb.url);
    const bob = await signUpUser(pb.url);
    const channel = await createChannel(alice, "Export channel");
    expect((await joinChannel(bob, channel)).status).toBe(200);
    const read = await postMessage(alice, channel.id);
    // one entry of her message archive (ADR 0048): the export gives its size, never its ciphertext
    const archived = randomBytes(30).toString("base64url");
    await (await admin()).collection("message_archive").create({ owner: alice.id, channel: channel.id, message: read.id, data: archived });
    const contactName = fakeCiphertext();
    await alice.pb.collection("whatsapp_contacts").create({ user: alice.id, name: contactName, phone_number: fakeCiphertext() });
    const direct = await call("/api/chat/direct", { id: crypto.randomUUID(), participants: [bob.id] }, alice);
    expect(direct.status, direct.text).toBe(200);

    const get = (user?: TestUser) =>
      fetch(`${pb.url}/api/chat/account/export`, { headers: user ? { Authorization: user.token } : {} }).then(async (r) => ({
        status: r.status,
        json: (await r.json()) as Record<string, unknown>,
      }));
    expect((await get()).status).toBe(401);
    const mine = await get(alice);
    expect(mine.status, JSON.stringify(mine.json)).toBe(200);
    // the address typed at sign-up, not attached until its link is opened
    expect(mine.json.account).toMatchObject({ id: alice.id, email: "", pending_email: alice.email, verified: false });
    expect(mine.json.profile).toMatchObject({ username: alice.username });
    expect(mine.json.contacts).toEqual([expect.objectContaining({ name: contactName })]);
    const channels = mine.json.channels as { name: string; direct: boolean; participants: string[]; messages_sent: number }[];
    expect(channels.find((c) => c.name === "Export channel")).toMatchObject({ direct: false, messages_sent: 1 });
    expect(channels.find((c) => c.direct)).toMatchObject({ participants: [bob.username] });
    expect(mine.json.sent).toMatchObject({ messages: 1 });
    expect(mine.json.message_archive).toEqual({ entries: 1, conversations: 1, characters: archived.length });
    expect(JSON.stringify(mine.json)).not.toContain(archived);

    const his = await get(bob);
    expect(his.status).toBe(200);
    expect(his.json.account).toMatchObject({ id: bob.id, pending_email: bob.email });
    expect(JSON.stringify(his.json)).not.toContain(contactName);
    expect(JSON.stringify(his.json)).not.toContain(alice.email);
  });
});

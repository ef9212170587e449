import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { randomBytes } from "node:crypto";
import { client, createChannel, joinChannel, signUpUser, startPocketBase, type RunningPocketBase, type TestUser } from "./pocketbase";

// The web server's keyring store (app/features/keyring/keyring.server.ts) against the real PocketBase,
// with the user's own token, as the /api/keyring route calls it.
process.env.SESSION_SECRET ??= randomBytes(32).toString("hex");
const { listKeyring, saveKeyringEntry } = await import("~/features/keyring/keyring.server");

const sealed = () => randomBytes(60).toString("base64url");

let server: RunningPocketBase;
let alice: TestUser;
let bob: TestUser;

beforeAll(async () => {
  server = await startPocketBase();
  [alice, bob] = await Promise.all([signUpUser(server.url), signUpUser(server.url)]);
});

afterAll(async () => {
  await server?.stop();
});

describe("keyring store", () => {
  it("two devices saving different channels at the same moment keep every entry", async () => {
    const channels = await Promise.all(Array.from({ length: 8 }, (_, i) => createChannel(alice, `kr ${i}`)));
    // Two "devices": two PocketBase clients of the same user, each saving half of the channels, all at once.
    const secondDevice = client(server.url);
    secondDevice.authStore.save(alice.pb.authStore.token, alice.pb.authStore.record);
    const devices = [alice.pb, secondDevice];
    await Promise.all(channels.map((channel, i) => saveKeyringEntry(devices[i % 2], alice.id, { channelId: channel.id, data: sealed() })));
    const entries = await listKeyring(alice.pb, alice.id);
    expect(entries.map((e) => e.channelId).sort()).toEqual(channels.map((c) => c.id).sort());
  });

  it("racing saves of the same channel leave one entry, holding one of the written values", async () => {
    const channel = await createChannel(alice, "kr race");
    const values = Array.from({ length: 6 }, sealed);
    await Promise.all(values.map((data) => saveKeyringEntry(alice.pb, alice.id, { channelId: channel.id, data })));
    const entries = (await listKeyring(alice.pb, alice.id)).filter((e) => e.channelId === channel.id);
    expect(entries).toHaveLength(1);
    expect(values).toContain(entries[0].data);
  });

  it("refuses an entry for a channel the user is not a member of, with a clear 403", async () => {
    const channel = await createChannel(alice, "kr private");
    const refused = await saveKeyringEntry(bob.pb, bob.id, { channelId: channel.id, data: sealed() }).catch(
      (response: Response) => response,
    );
    expect(refused).toBeInstanceOf(Response);
    expect((refused as Response).status).toBe(403);
    expect(((await (refused as Response).json()) as { message: string }).message).toMatch(/not a member/);
    expect((await joinChannel(bob, channel)).status).toBe(200);
    await saveKeyringEntry(bob.pb, bob.id, { channelId: channel.id, data: sealed() });
    expect((await listKeyring(bob.pb, bob.id)).map((e) => e.channelId)).toEqual([channel.id]);
  });
});

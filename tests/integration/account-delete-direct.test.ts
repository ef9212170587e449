// Deleting an account that is in a direct conversation: its memberships go with it, and nothing is
// noted for the account being deleted (pb_hooks/requests.pb.js notes who leaves a conversation, ADR 52).
// Before that rule, the deletion answered 400 "Invalid user: Failed to find all relation records".

import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, expect, it } from "vitest";
import { createChannel, joinChannel, postJson, signUpUser, startPocketBase, superuserClient, type RunningPocketBase } from "./pocketbase";

let server: RunningPocketBase;

beforeAll(async () => {
  server = await startPocketBase();
});

afterAll(async () => {
  await server?.stop();
});

it("an account in a direct conversation and a channel with an invite is deleted, and the other keeps the conversation", async () => {
  const alice = await signUpUser(server.url);
  const bob = await signUpUser(server.url);
  const channel = await createChannel(alice);
  expect((await joinChannel(bob, channel)).status).toBe(200);
  const dm = randomUUID();
  expect((await postJson(server.url, "/api/chat/direct", { id: dm, participants: [bob.id] }, alice.token)).status).toBe(200);
  expect((await postJson(server.url, "/api/chat/invites", { channel_id: channel.id }, alice.token)).status).toBe(200);

  const deleted = await postJson(server.url, "/api/chat/account/delete", { password: alice.password }, alice.token);
  expect(deleted.status, deleted.text).toBe(200);

  const su = await superuserClient(server.url, server.superuser);
  const of = (collection: string, user: string) => su.collection(collection).getFullList({ filter: su.filter("user = {:u}", { u: user }) });
  expect(await of("channel_members", alice.id)).toHaveLength(0);
  expect(await of("direct_left", alice.id)).toHaveLength(0);
  expect((await of("channel_members", bob.id)).map((m) => m.channel).sort()).toEqual([channel.id, dm].sort());
});

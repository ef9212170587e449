// The stack of the channel tests (channels-*.test.ts): one PocketBase per test file, with alice,
// who creates channels, bob, who joins them, and carol, never a member.

import type PocketBase from "pocketbase";
import { afterAll, beforeAll } from "vitest";
import { signUpUser, startPocketBase, superuserClient, type RunningPocketBase, type TestUser } from "./pocketbase";

export let server: RunningPocketBase;
export let admin: PocketBase;
export let alice: TestUser; // creates channels
export let bob: TestUser; // joins them
export let carol: TestUser; // never a member

/** Starts the PocketBase and signs the three up before the calling test file's tests, and stops it after them. */
export function useChannelsStack(): void {
  beforeAll(async () => {
    server = await startPocketBase();
    admin = await superuserClient(server.url, server.superuser);
    [alice, bob, carol] = await Promise.all([signUpUser(server.url), signUpUser(server.url), signUpUser(server.url)]);
  });

  afterAll(async () => {
    await server?.stop();
  });
}

export async function membersOf(channelId: string) {
  return admin.collection("channel_members").getFullList({ filter: admin.filter("channel = {:id}", { id: channelId }) });
}

// The stack of the invite tests (invites*.test.ts): one PocketBase per test file, with the workspace's
// owner (its first account) and alice, bob and carol, members; and the calls the tests make.

import type PocketBase from "pocketbase";
import { afterAll, beforeAll, expect } from "vitest";
import {
  fakePublicKey,
  postJson,
  signUpUser,
  startPocketBase,
  superuserClient,
  type RunningPocketBase,
  type TestChannel,
  type TestUser,
} from "./pocketbase";

export let server: RunningPocketBase;
export let su: PocketBase;
export let owner: TestUser; // the workspace's first account
export let alice: TestUser; // creates channels
export let bob: TestUser;
export let carol: TestUser;

/** Starts the PocketBase and signs the four up before the calling test file's tests, and stops it after them. */
export function useInvitesStack(): void {
  beforeAll(async () => {
    server = await startPocketBase();
    su = await superuserClient(server.url, server.superuser);
    owner = await signUpUser(server.url);
    [alice, bob, carol] = await Promise.all([signUpUser(server.url), signUpUser(server.url), signUpUser(server.url)]);
  }, 60_000);

  afterAll(async () => {
    await server?.stop();
  });
}

export const call = (route: string, body: unknown, user?: TestUser) => postJson(server.url, route, body, user?.token);
export async function get(route: string, user?: TestUser) {
  const res = await fetch(`${server.url}${route}`, { headers: user ? { Authorization: user.token } : {} });
  const text = await res.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: res.status, text, json: json as Record<string, unknown> };
}

export async function invite(user: TestUser, channel: TestChannel, limits: { expires?: string; max_uses?: number } = {}) {
  const res = await call("/api/chat/invites", { channel_id: channel.id, ...limits }, user);
  expect(res.status, res.text).toBe(200);
  return (res.json as { id: string }).id;
}

export const joinWith = (user: TestUser, channel: TestChannel, inviteId?: string) =>
  call(
    "/api/chat/channels/join",
    { channel_id: channel.id, verifier: channel.verifier, ecdh_public_key: fakePublicKey(), ...(inviteId ? { invite_id: inviteId } : {}) },
    user,
  );
export const preview = async (id: string, user?: TestUser) => (await get(`/api/chat/invites/preview?id=${id}`, user)).json;
export const isMember = async (user: TestUser, channel: TestChannel) =>
  (
    await su
      .collection("channel_members")
      .getFullList({ filter: su.filter("channel = {:c} && user = {:u}", { c: channel.id, u: user.id }) })
  ).length === 1;
export const auditActions = async (target: string) =>
  (await su.collection("audit_log").getFullList({ filter: su.filter("target = {:t}", { t: target }), sort: "seq" })).map((r) => r.action);
export const setRole = (user: TestUser, role: string) => su.collection("profiles").update(user.id, { role });
export const remove = (by: TestUser, channel: TestChannel, user: TestUser) =>
  call("/api/chat/channels/members/remove", { channel_id: channel.id, user_id: user.id }, by);

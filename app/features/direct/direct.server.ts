import type PocketBase from "pocketbase";
import { listProfiles } from "~/features/auth/users.server";
import { callHook, readHook } from "~/server/hooks.server";
import type { Person } from "~/features/direct/types";
import { fail } from "~/server/http.server";
import { failOnOutage } from "~/server/outage.server";
import { pbStatus } from "~/server/pocketbase.server";

/**
 * The web server's side of direct conversations (pb_hooks/direct.pb.js): each call is passed on with
 * the caller's token, so PocketBase decides who may do what.
 */
export const createDirect = (pb: PocketBase, body: { id: string; participants: string[] }) =>
  callHook<{ id: string; existing: boolean }>(pb, "/api/chat/direct", body, "The conversation could not be started. Please try again.");

export const addPeople = (pb: PocketBase, channelId: string, participants: string[]) =>
  callHook<{ id: string }>(
    pb,
    "/api/chat/direct/add",
    { channel_id: channelId, participants },
    "The people could not be added. Please try again.",
  );

export const lookupUser = (pb: PocketBase, username: string) =>
  callHook<{ user: Person | null }>(pb, "/api/chat/users/lookup", { username }, "The look-up failed. Please try again.");

/**
 * The people the caller shares a channel with (pb_hooks/people.pb.js, without anyone who blocked the
 * caller): the picker's suggestions, never a list of all users.
 */
export async function sharedPeople(pb: PocketBase): Promise<Person[]> {
  const { ids } = await readHook<{ ids: string[] }>(pb, "/api/chat/people", "The people could not be listed. Please try again.");
  return (await listProfiles(pb, ids))
    .map((p) => ({ id: p.id, username: p.username, ...("role" in p ? { role: p.role, deactivated: p.deactivated } : {}) }))
    .sort((a, b) => a.username.localeCompare(b.username));
}

/** A group conversation's sealed name ("" when none yet), for its participants only (404 otherwise). */
export async function readSealedName(pb: PocketBase, channelId: string): Promise<string> {
  let record: { direct?: boolean; sealed_name?: string };
  try {
    record = await pb.collection("channels").getOne(channelId, { fields: "direct,sealed_name" });
  } catch (error) {
    failOnOutage(error);
    if ([403, 404].includes(pbStatus(error))) fail(404, "Conversation not found");
    throw error;
  }
  if (!record.direct) fail(404, "Conversation not found");
  return record.sealed_name ?? "";
}

/**
 * Keeps a group's name sealed for `epoch` (PocketBase answers 409 when the group's epoch moved on, and
 * `kept: false` when a carried name finds the epoch named or left already).
 */
export const storeSealedName = (pb: PocketBase, channelId: string, body: { epoch: number; sealed: string; carry?: boolean }) =>
  callHook<{ ok: true; kept: boolean }>(
    pb,
    "/api/chat/direct/name",
    { channel_id: channelId, ...body },
    "The conversation's name could not be saved. Please try again.",
  );

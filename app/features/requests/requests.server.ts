import type PocketBase from "pocketbase";
import { listProfiles } from "~/features/auth/users.server";
import { callHook } from "~/server/hooks.server";
import type { Person } from "~/features/direct/types";
import type { DirectRequest, RequestAnswer } from "~/features/requests/types";

/**
 * Requests and blocks on the web server's side (pb_hooks/requests.pb.js, ADR 0052): PocketBase's list
 * rules give each person only their own, and the hooks decide every answer.
 */
export async function listRequests(pb: PocketBase): Promise<DirectRequest[]> {
  const records = await pb
    .collection("direct_requests")
    .getFullList<{ channel: string; requester: string }>({ sort: "-created,-id", fields: "channel,requester", batch: 200 });
  const names = await usernames(
    pb,
    records.map((r) => r.requester),
  );
  return records.map((r) => ({ channelId: r.channel, requester: { id: r.requester, username: names.get(r.requester) ?? "Someone" } }));
}

export const answerRequest = (pb: PocketBase, channelId: string, answer: RequestAnswer) =>
  callHook<{ ok: true }>(
    pb,
    "/api/chat/direct/requests/answer",
    { channel_id: channelId, answer },
    "The request could not be answered. Please try again.",
  );

/** The people the caller blocked, by name. */
export async function listBlocked(pb: PocketBase): Promise<Person[]> {
  const records = await pb.collection("blocks").getFullList<{ blocked: string }>({ fields: "blocked", batch: 500 });
  const names = await usernames(
    pb,
    records.map((r) => r.blocked),
  );
  return records
    .map((r) => ({ id: r.blocked, username: names.get(r.blocked) ?? "Deleted user" }))
    .sort((a, b) => a.username.localeCompare(b.username));
}

export const unblock = (pb: PocketBase, userId: string) =>
  callHook<{ ok: true }>(pb, "/api/chat/users/unblock", { user_id: userId }, "The person could not be unblocked. Please try again.");

async function usernames(pb: PocketBase, ids: string[]) {
  const names = new Map<string, string>();
  for (const p of await listProfiles(pb, [...new Set(ids)])) names.set(p.id, p.username);
  return names;
}

/**
 * A conversation's call records (docs/decisions/0070-call-records-from-the-server.md): written by
 * PocketBase when a call's room empties and closes (pocketbase/call_records.go), read here for members
 * only (the collection's rules show a conversation's records to its members).
 */
import type PocketBase from "pocketbase";
import { pbStatus } from "~/server/pocketbase.server";
import { failOnOutage } from "~/server/outage.server";
import { fail } from "~/server/http.server";
import type { CallRecordShape } from "./types";

/** The most records a page reads at once: the latest calls of the conversation. */
export const CALL_RECORDS_MAX = 50;

export async function callRecords(pb: PocketBase, conversationId: string): Promise<CallRecordShape[]> {
  try {
    await pb.collection("channels").getOne(conversationId, { fields: "id" });
    const page = await pb.collection("call_records").getList(1, CALL_RECORDS_MAX, {
      filter: pb.filter("channel = {:channel} && ended != ''", { channel: conversationId }),
      sort: "-ended",
      fields: "id,started,ended,unanswered_caller,declined_by",
      skipTotal: true,
    });
    const declinedBy = (r: Record<string, unknown>) => (Array.isArray(r.declined_by) ? r.declined_by.map(String) : []);
    const names = await usernames(
      pb,
      page.items.flatMap((r) => [String(r.unanswered_caller ?? ""), ...declinedBy(r)]),
    );
    return page.items.map((r) => {
      const caller = String(r.unanswered_caller ?? "");
      const record: CallRecordShape = { id: String(r.id), started: String(r.started), ended: String(r.ended) };
      if (!caller) return record;
      const declined = declinedBy(r).map((id) => ({ id, name: names.get(id) ?? "" }));
      return { ...record, unanswered: { caller, name: names.get(caller) ?? "", ...(declined.length ? { declined } : {}) } };
    });
  } catch (error) {
    failOnOutage(error);
    if ([403, 404].includes(pbStatus(error))) fail(404, "Conversation not found");
    throw error;
  }
}

/** The usernames of those who placed or declined calls nobody answered (a participant's profile, as members see it). */
async function usernames(pb: PocketBase, callers: string[]): Promise<Map<string, string>> {
  const ids = [...new Set(callers.filter(Boolean))];
  const named = await Promise.all(
    ids.map((id) =>
      pb
        .collection("profiles")
        .getOne(id, { fields: "username" })
        .then((profile) => [id, String(profile.username ?? "")] as const)
        .catch(() => [id, ""] as const),
    ),
  );
  return new Map(named);
}

import type PocketBase from "pocketbase";
import { fail } from "~/server/http.server";
import { failOnOutage } from "~/server/outage.server";
import { pbStatus } from "~/server/pocketbase.server";
import { moveMarker } from "~/server/marker.server";

type SeenRecord = { root: string; seen: string };

/**
 * The threads the user saw on any of their devices since `since`: root -> the time of the latest
 * reply seen in its panel (thread_reads; PocketBase's rule gives the owner their own rows only).
 */
export async function threadsSeen(pb: PocketBase, since: string): Promise<Record<string, string>> {
  try {
    const rows = await pb
      .collection("thread_reads")
      .getFullList<SeenRecord>({ filter: pb.filter("seen >= {:since}", { since }), fields: "root,seen", batch: 1000 });
    return Object.fromEntries(rows.map((r) => [r.root, r.seen]));
  } catch (error) {
    failOnOutage(error);
    throw error;
  }
}

/** The user saw a thread up to the reply of `at` (forward only: another device may have seen further). */
export async function markThreadSeen(pb: PocketBase, userId: string, root: string, at: string): Promise<string> {
  try {
    const filter = pb.filter("user = {:user} && root = {:root}", { user: userId, root });
    return await moveMarker(pb, { collection: "thread_reads", filter, field: "seen", record: { user: userId, root } }, at);
  } catch (error) {
    const status = pbStatus(error);
    if (status === 400 || status === 403 || status === 404) fail(404, "This thread is not there.");
    failOnOutage(error);
    fail(502, "The thread could not be marked as seen.");
  }
}

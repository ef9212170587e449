import type PocketBase from "pocketbase";
import { fail } from "~/server/http.server";
import { pbStatus } from "~/server/pocketbase.server";
import { failOnTooMany } from "~/server/outage.server";
import { moveMarker } from "~/server/marker.server";
import type { UnreadCount } from "~/features/unread/types";

/** Unread counts of the caller's channels (PocketBase's /api/chat/unread: one query for all channels). */
export async function unreadCounts(pb: PocketBase): Promise<UnreadCount[]> {
  try {
    return (await pb.send<{ unread: UnreadCount[] }>("/api/chat/unread", { method: "GET" })).unread;
  } catch (error) {
    failOnTooMany(error);
    fail(pbStatus(error) === 401 ? 401 : 502, pbStatus(error) === 401 ? "Not authenticated" : "Unread counts are not available right now.");
  }
}

/** Moves the caller's read position in a channel forward (never back: another device may have read further). */
export async function markRead(pb: PocketBase, userId: string, channelId: string, at: string): Promise<string> {
  try {
    const filter = pb.filter("user = {:user} && channel = {:channel}", { user: userId, channel: channelId });
    return await moveMarker(
      pb,
      { collection: "read_positions", filter, field: "last_read", record: { user: userId, channel: channelId } },
      at,
    );
  } catch (error) {
    const status = pbStatus(error);
    fail(
      status === 400 || status === 404 ? 403 : 502,
      status === 400 || status === 404 ? "You are not a member of this conversation." : "The read position could not be saved.",
    );
  }
}

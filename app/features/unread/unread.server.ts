import type PocketBase from "pocketbase";
import { fail } from "~/server/http.server";
import { pbStatus } from "~/server/pocketbase.server";
import { failOnTooMany } from "~/server/outage.server";
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

type PositionRecord = { id: string; last_read: string };

/** Moves the caller's read position in a channel forward (never back: another device may have read further). */
export async function markRead(pb: PocketBase, userId: string, channelId: string, at: string): Promise<string> {
  try {
    for (let again = false; ; again = true) {
      const current = await pb
        .collection("read_positions")
        .getFirstListItem<PositionRecord>(pb.filter("user = {:user} && channel = {:channel}", { user: userId, channel: channelId }), {
          fields: "id,last_read",
        })
        .catch((error) => {
          if (pbStatus(error) === 404) return null;
          throw error;
        });
      if (current && current.last_read >= at) return current.last_read;
      if (current) await pb.collection("read_positions").update(current.id, { last_read: at }, { fields: "id" });
      else {
        const refused = await pb
          .collection("read_positions")
          .create({ user: userId, channel: channelId, last_read: at }, { fields: "id" })
          .then(
            () => null,
            (error: unknown) => error,
          );
        // Another device of the user's made the row a moment earlier (one per user and conversation):
        // this one moves it instead.
        if (refused && !again && pbStatus(refused) === 400) continue;
        if (refused) throw refused;
      }
      return at;
    }
  } catch (error) {
    const status = pbStatus(error);
    fail(
      status === 400 || status === 404 ? 403 : 502,
      status === 400 || status === 404 ? "You are not a member of this conversation." : "The read position could not be saved.",
    );
  }
}

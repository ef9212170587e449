import type PocketBase from "pocketbase";
import { fail } from "~/server/http.server";
import { pbStatus } from "~/server/pocketbase.server";
import type { EncryptedKeyringEntry } from "~/conversation/keyring/types";

type EntryRecord = { id: string; user: string; channel: string; data: string; updated: string };

const FIELDS = "id,user,channel,data,updated";
const NOT_MEMBER = "This channel's key could not be saved to your keyring: you are not a member of the channel.";
const SAVE_FAILED = "This channel's key could not be saved to your keyring. Please try again.";
const toEntry = (r: EntryRecord): EncryptedKeyringEntry => ({ channelId: r.channel, data: r.data });

/** The caller's own keyring (ciphertext). Scoped by user here and by PocketBase's rules. */
export async function listKeyring(pb: PocketBase, userId: string) {
  const records = await pb.collection("keyring_entries").getFullList<EntryRecord>({
    filter: pb.filter("user = {:user}", { user: userId }),
    fields: FIELDS,
  });
  return records.map(toEntry);
}

/**
 * Stores the caller's entry for a channel: one record per (user, channel), so two devices saving
 * different channels at the same moment never overwrite each other. A second save of the same
 * channel replaces the entry (the unique index turns a racing create into an update).
 */
export async function saveKeyringEntry(pb: PocketBase, userId: string, entry: EncryptedKeyringEntry) {
  const existing = async () =>
    pb
      .collection("keyring_entries")
      .getFirstListItem<EntryRecord>(pb.filter("user = {:user} && channel = {:channel}", { user: userId, channel: entry.channelId }), {
        fields: FIELDS,
      })
      .catch((error) => {
        if (pbStatus(error) === 404) return null;
        throw error;
      });
  const update = async (id: string) =>
    toEntry(await pb.collection("keyring_entries").update<EntryRecord>(id, { data: entry.data }, { fields: FIELDS }));
  try {
    const current = await existing();
    if (current) return await update(current.id);
    try {
      return toEntry(
        await pb
          .collection("keyring_entries")
          .create<EntryRecord>({ user: userId, channel: entry.channelId, data: entry.data }, { fields: FIELDS }),
      );
    } catch (error) {
      // A create that lost a race with another device of the same user: update the winner's record.
      const winner = pbStatus(error) === 400 ? await existing() : null;
      if (!winner) throw error;
      return await update(winner.id);
    }
  } catch (error) {
    const status = pbStatus(error);
    fail(status === 400 || status === 404 ? 403 : 502, status === 400 || status === 404 ? NOT_MEMBER : SAVE_FAILED);
  }
}

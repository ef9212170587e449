import type PocketBase from "pocketbase";
import { fail } from "~/server/http.server";
import { pbStatus } from "~/server/pocketbase.server";
import type { NotifyRules } from "~/features/notify-rules/rules";
import { storedRules } from "~/features/notify-rules/validation";

type RulesRecord = { id: string; rules: unknown };

const FIELDS = "id,rules";
const LOAD_FAILED = "Your notification choices could not be loaded. Please try again.";
const SAVE_FAILED = "Your notification choices could not be saved. Please try again.";
const REFUSED = "These notification choices could not be saved: they are too large.";

/** The caller's record (one per user), or null before their first save. Scoped by owner here and by PocketBase's rules. */
async function ownRecord(pb: PocketBase, userId: string): Promise<RulesRecord | null> {
  return pb
    .collection("notify_rules")
    .getFirstListItem<RulesRecord>(pb.filter("owner = {:owner}", { owner: userId }), { fields: FIELDS })
    .catch((error) => {
      if (pbStatus(error) === 404) return null;
      throw error;
    });
}

/** The caller's notification rules: each conversation's choice and mute, and the Do not disturb hours; none before the first save. */
export async function readNotifyRules(pb: PocketBase, userId: string): Promise<NotifyRules> {
  let record: RulesRecord | null;
  try {
    record = await ownRecord(pb, userId);
  } catch {
    fail(502, LOAD_FAILED);
  }
  return record ? storedRules(record.rules) : { conversations: {} };
}

/**
 * Replaces the caller's rules (already validated). One record per user: a create that lost a race
 * with another of the user's devices (the unique index on owner) updates the winner's record instead.
 */
export async function saveNotifyRules(pb: PocketBase, userId: string, rules: NotifyRules): Promise<NotifyRules> {
  const update = async (id: string) => (await pb.collection("notify_rules").update<RulesRecord>(id, { rules }, { fields: FIELDS })).rules;
  try {
    const current = await ownRecord(pb, userId);
    if (current) return storedRules(await update(current.id));
    try {
      return storedRules((await pb.collection("notify_rules").create<RulesRecord>({ owner: userId, rules }, { fields: FIELDS })).rules);
    } catch (error) {
      const winner = pbStatus(error) === 400 ? await ownRecord(pb, userId) : null;
      if (!winner) throw error;
      return storedRules(await update(winner.id));
    }
  } catch (error) {
    fail(pbStatus(error) === 400 ? 400 : 502, pbStatus(error) === 400 ? REFUSED : SAVE_FAILED);
  }
}

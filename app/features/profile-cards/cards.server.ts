/**
 * Profile cards on the server (ADR 0075): ciphertext records read and written with the caller's own
 * PocketBase token, so the collections' rules decide who sees what (owner writes; readers are those the
 * owner sealed the profile key to).
 */
import type PocketBase from "pocketbase";
import { fail } from "~/server/http.server";
import { pbStatus } from "~/server/pocketbase.server";
import { NOT_SHARED, type OwnCardState, type SealedCard, type SealedKey } from "~/features/profile-cards/types";

type CardRecord = { id: string; owner: string; card: string };
type KeyRecord = { id: string; owner: string; reader: string; sealed_key: string };

const SAVE_FAILED = "Your profile could not be saved. Please try again.";

/** Everyone who shares a channel or a direct conversation with the caller (channel_members' rules show only those). */
export async function coMembers(pb: PocketBase, userId: string): Promise<string[]> {
  const rows = await pb.collection("channel_members").getFullList<{ user: string }>({ fields: "user", batch: 1000 });
  return [...new Set(rows.map((r) => r.user))].filter((id) => id !== userId).sort();
}

const orFilter = (pb: PocketBase, field: string, ids: readonly string[]) =>
  ids.map((id) => pb.filter(`${field} = {:id}`, { id })).join(" || ");

/** The cards of these people that the caller may read, each with the profile key sealed to the caller. */
export async function readCards(pb: PocketBase, userId: string, ids: readonly string[]): Promise<SealedCard[]> {
  const [cards, keys] = await Promise.all([
    pb.collection("profile_cards").getFullList<CardRecord>({ filter: orFilter(pb, "owner", ids), fields: "id,owner,card" }),
    pb.collection("profile_card_keys").getFullList<KeyRecord>({
      filter: `${pb.filter("reader = {:me}", { me: userId })} && (${orFilter(pb, "owner", ids)})`,
      fields: "owner,sealed_key",
    }),
  ]);
  const sealed = new Map(keys.map((k) => [k.owner, k.sealed_key]));
  return cards.map((c) => ({ ownerId: c.owner, card: c.card, sealedKey: sealed.get(c.owner) ?? null }));
}

/** The caller's own card and who it is sealed to, with the people it may be sealed to. */
export async function ownCard(pb: PocketBase, userId: string): Promise<OwnCardState> {
  const [cards, readers, people] = await Promise.all([
    readCards(pb, userId, [userId]),
    pb
      .collection("profile_card_keys")
      .getFullList<KeyRecord>({ filter: pb.filter("owner = {:me}", { me: userId }), fields: "reader", batch: 1000 }),
    coMembers(pb, userId),
  ]);
  return { card: cards[0] ?? null, readers: readers.map((r) => r.reader), people };
}

async function findOne<T>(pb: PocketBase, collection: string, filter: string, fields: string): Promise<T | null> {
  return pb
    .collection(collection)
    .getFirstListItem<T>(filter, { fields })
    .catch((error) => {
      if (pbStatus(error) === 404) return null;
      throw error;
    });
}

/** Stores the caller's card (one record per person), or removes it and every sealed key with `null`. */
export async function saveCard(pb: PocketBase, userId: string, card: string | null) {
  try {
    const current = await findOne<CardRecord>(pb, "profile_cards", pb.filter("owner = {:me}", { me: userId }), "id");
    if (card === null) {
      if (current) await pb.collection("profile_cards").delete(current.id);
      await dropKeys(pb, userId, () => true);
    } else if (current) await pb.collection("profile_cards").update(current.id, { card }, { fields: "id" });
    else await pb.collection("profile_cards").create({ owner: userId, card }, { fields: "id" });
  } catch (error) {
    if (pbStatus(error) === 400) fail(400, "Your profile could not be saved: it is not an encrypted card.");
    fail(502, SAVE_FAILED);
  }
}

async function dropKeys(pb: PocketBase, userId: string, drop: (reader: string) => boolean) {
  const keys = await pb
    .collection("profile_card_keys")
    .getFullList<KeyRecord>({ filter: pb.filter("owner = {:me}", { me: userId }), fields: "id,reader", batch: 1000 });
  for (const key of keys) if (drop(key.reader)) await pb.collection("profile_card_keys").delete(key.id);
}

/**
 * Stores the caller's profile key sealed to these readers (the caller and people they share a
 * conversation with; anyone else: 403). With `prune`, keys of people no longer sharing one are removed.
 */
export async function saveKeys(pb: PocketBase, userId: string, keys: readonly SealedKey[], prune: boolean) {
  const people = new Set(await coMembers(pb, userId));
  if (keys.some((k) => k.reader !== userId && !people.has(k.reader))) fail(403, NOT_SHARED);
  try {
    for (const { reader, sealedKey } of keys) {
      const filter = pb.filter("owner = {:me} && reader = {:reader}", { me: userId, reader });
      const current = await findOne<KeyRecord>(pb, "profile_card_keys", filter, "id");
      if (current) await pb.collection("profile_card_keys").update(current.id, { sealed_key: sealedKey }, { fields: "id" });
      else await pb.collection("profile_card_keys").create({ owner: userId, reader, sealed_key: sealedKey }, { fields: "id" });
    }
    if (prune) await dropKeys(pb, userId, (reader) => reader !== userId && !people.has(reader));
  } catch (error) {
    if (pbStatus(error) === 400) fail(400, "Your profile could not be shared: a sealed key is not valid.");
    fail(502, SAVE_FAILED);
  }
}

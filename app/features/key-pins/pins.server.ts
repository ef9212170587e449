import type PocketBase from "pocketbase";
import { fail } from "~/server/http.server";
import { pbErrorMessage, pbStatus } from "~/server/pocketbase.server";
import type { EncryptedPin, SealedHead } from "~/conversation/senders/types";

type PinRecord = { id: string; subject: string; data: string };
type HeadRecord = { counter: number; data: string };

/** The caller's own key pins (ciphertext) and their head (null before the first). Scoped by owner here and by PocketBase's rules. */
export async function listPins(pb: PocketBase, userId: string): Promise<{ pins: EncryptedPin[]; head: SealedHead | null }> {
  const byOwner = pb.filter("owner = {:owner}", { owner: userId });
  const [records, heads] = await Promise.all([
    pb.collection("key_pins").getFullList<PinRecord>({ filter: byOwner, fields: "subject,data", batch: 500 }),
    pb.collection("key_pin_heads").getList<HeadRecord>(1, 1, { filter: byOwner, fields: "counter,data" }),
  ]);
  const head = heads.items[0];
  return {
    pins: records.map((r) => ({ subjectId: r.subject, data: r.data })),
    head: head ? { counter: head.counter, data: head.data } : null,
  };
}

/**
 * Stores some pins (one, several, or none) and the pins' next head, together (pb_hooks/pins.pb.js).
 * 409 when another device saved first.
 */
export async function savePins(pb: PocketBase, save: { pin?: EncryptedPin; pins?: EncryptedPin[]; head: SealedHead }) {
  const pins = [...(save.pin ? [save.pin] : []), ...(save.pins ?? [])];
  try {
    return await pb.send<{ counter: number }>("/api/chat/pins", {
      method: "POST",
      body: { ...(pins.length ? { pins: pins.map((p) => ({ subject: p.subjectId, data: p.data })) } : {}), head: save.head },
    });
  } catch (error) {
    const status = pbStatus(error);
    fail(status >= 400 && status < 500 ? status : 502, pbErrorMessage(error) ?? "This user's keys could not be saved. Please try again.");
  }
}

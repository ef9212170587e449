import type PocketBase from "pocketbase";
import { fail } from "~/server/http.server";
import { pbStatus } from "~/server/pocketbase.server";
import type { EncryptedPin } from "~/features/pins/types";

type PinRecord = { id: string; subject: string; data: string };

const FIELDS = "id,subject,data";
const toPin = (r: PinRecord): EncryptedPin => ({ subjectId: r.subject, data: r.data });

/** The caller's own key pins (ciphertext). Scoped by owner here and by PocketBase's rules. */
export async function listPins(pb: PocketBase, userId: string) {
  const records = await pb.collection("key_pins").getFullList<PinRecord>({
    filter: pb.filter("owner = {:owner}", { owner: userId }),
    fields: FIELDS,
    batch: 500,
  });
  return records.map(toPin);
}

/** Stores the caller's pin for one user: one record per (owner, subject); a second save replaces it. */
export async function savePin(pb: PocketBase, userId: string, pin: EncryptedPin) {
  const pins = pb.collection("key_pins");
  const filter = pb.filter("owner = {:owner} && subject = {:subject}", { owner: userId, subject: pin.subjectId });
  try {
    const current = await pins.getFirstListItem<PinRecord>(filter, { fields: FIELDS }).catch((error) => {
      if (pbStatus(error) === 404) return null;
      throw error;
    });
    if (current) return toPin(await pins.update<PinRecord>(current.id, { data: pin.data }, { fields: FIELDS }));
    return toPin(await pins.create<PinRecord>({ owner: userId, subject: pin.subjectId, data: pin.data }, { fields: FIELDS }));
  } catch (error) {
    const status = pbStatus(error);
    // 400: an unknown user, or a create that lost a race with another of the caller's devices (retried by the page).
    fail(status === 400 || status === 404 ? 409 : 502, "This user's keys could not be saved. Please try again.");
  }
}

import type PocketBase from "pocketbase";
import { pbStatus } from "~/server/pocketbase.server";

/** Where a person's marker is kept: one record per person and thing (a unique index), its time in `field`. */
interface Marker {
  collection: string;
  /** Finds the person's record (a PocketBase filter, its values bound). */
  filter: string;
  field: string;
  /** The new record's other fields, when there is none yet. */
  record: Record<string, unknown>;
}

/**
 * Moves a person's marker (a read position, a thread seen) forward to `at`, never back (another device
 * may have gone further), and answers where it is. Two devices making the first record at once: the
 * one the unique index refuses reads the record again and moves it. PocketBase's errors go to the caller.
 */
export async function moveMarker(pb: PocketBase, marker: Marker, at: string): Promise<string> {
  const records = pb.collection(marker.collection);
  for (let again = false; ; again = true) {
    const current = await records
      .getFirstListItem<{ id: string } & Record<string, string>>(marker.filter, { fields: `id,${marker.field}` })
      .catch((error) => {
        if (pbStatus(error) === 404) return null;
        throw error;
      });
    const where = current?.[marker.field];
    if (current && where !== undefined && where >= at) return where;
    if (current) {
      await records.update(current.id, { [marker.field]: at }, { fields: "id" });
      return at;
    }
    const refused = await records.create({ ...marker.record, [marker.field]: at }, { fields: "id" }).then(
      () => null,
      (error: unknown) => error,
    );
    if (!refused) return at;
    if (again || pbStatus(refused) !== 400) throw refused;
  }
}

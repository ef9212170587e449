import type PocketBase from "pocketbase";
import { fail } from "~/server/http.server";
import { pbStatus } from "~/server/pocketbase.server";

type ContactRecord = { id: string; user: string; name: string; phone_number: string; updated: string };
export interface EncryptedContact {
  id: string;
  name: string;
  phoneNumber: string;
  updated: string;
}

const toContact = (r: ContactRecord): EncryptedContact => ({ id: r.id, name: r.name, phoneNumber: r.phone_number, updated: r.updated });
const FIELDS = "id,user,name,phone_number,updated";

/** The caller's own contacts (ciphertext). Scoped by user here and by PocketBase's rules. */
export async function listContacts(pb: PocketBase, userId: string) {
  const records = await pb.collection("whatsapp_contacts").getFullList<ContactRecord>({
    filter: pb.filter("user = {:user}", { user: userId }),
    fields: FIELDS,
  });
  return records.map(toContact);
}

export async function saveContact(
  pb: PocketBase,
  userId: string,
  input: { id: string; isNew?: boolean; name: string; phoneNumber: string },
) {
  const body = { id: input.id, user: userId, name: input.name, phone_number: input.phoneNumber };
  try {
    const record = input.isNew
      ? await pb.collection("whatsapp_contacts").create<ContactRecord>(body, { fields: FIELDS })
      : await pb
          .collection("whatsapp_contacts")
          .update<ContactRecord>(input.id, { name: body.name, phone_number: body.phone_number }, { fields: FIELDS });
    return toContact(record);
  } catch (error) {
    const status = pbStatus(error);
    if (status === 404) fail(404, CONTACT_GONE);
    fail(status === 400 ? 400 : 502, "Failed to save contact. Please try again.");
  }
}

/** A contact not in the caller's book (deleted on another device, or never theirs): trying again cannot help. */
export const CONTACT_GONE = "This contact is no longer in your contacts.";

export async function deleteContact(pb: PocketBase, id: string) {
  try {
    await pb.collection("whatsapp_contacts").delete(id);
  } catch (error) {
    if (pbStatus(error) === 404) fail(404, CONTACT_GONE);
    fail(502, "Failed to delete contact. Please try again.");
  }
}

import { decryptText, encryptText, randomId } from "~/crypto";
import { api, ApiError } from "~/lib/api.client";
import { vaultKey } from "~/conversation/keyring/vault.client";
import { sortContactsByName } from "~/features/contacts/whatsapp";

export interface Contact {
  id: string;
  name: string;
  phone: string;
}

export interface EncryptedContact {
  id: string;
  name: string;
  phoneNumber: string;
}

// Each field is bound to its owner and its record: the server cannot move a name or a number to another contact.
const aad = (userId: string, recordId: string, field: string) => `chatcrypt:contact:v2:${userId}:${recordId}:${field}`;
const contactsKey = (userId: string) => vaultKey(userId, "contacts");

/** One contact, opened with the contacts key; null when a field was altered or belongs to another record. */
export async function decryptContact(key: CryptoKey, userId: string, c: EncryptedContact): Promise<Contact | null> {
  try {
    const [name, phone] = await Promise.all([
      decryptText(key, c.name, aad(userId, c.id, "name")),
      decryptText(key, c.phoneNumber, aad(userId, c.id, "phone")),
    ]);
    return { id: c.id, name, phone };
  } catch {
    return null;
  }
}

/** Encrypts a contact's fields bound to its owner and record. */
export async function encryptContact(key: CryptoKey, userId: string, contact: Contact): Promise<EncryptedContact> {
  const [name, phoneNumber] = await Promise.all([
    encryptText(key, contact.name, aad(userId, contact.id, "name")),
    encryptText(key, contact.phone, aad(userId, contact.id, "phone")),
  ]);
  return { id: contact.id, name, phoneNumber };
}

/** The contact book, decrypted and sorted by name; entries that fail to decrypt are left out. */
export async function loadContacts(userId: string): Promise<Contact[]> {
  const key = await contactsKey(userId);
  const { contacts } = await api<{ contacts: EncryptedContact[] }>("/api/contacts");
  const decrypted = await Promise.all(contacts.map((c) => decryptContact(key, userId, c)));
  return sortContactsByName(decrypted.filter((c): c is Contact => c !== null));
}

export async function saveContact(userId: string, contact: { id?: string; name: string; phone: string }): Promise<Contact> {
  const key = await contactsKey(userId);
  // A new contact's record id is chosen here, so its fields can be bound to it before they are sent.
  const sealed = await encryptContact(key, userId, { id: contact.id ?? randomId(), name: contact.name, phone: contact.phone });
  const { contact: saved } = await api<{ contact: EncryptedContact }>("/api/contacts", { ...sealed, isNew: !contact.id });
  return { id: saved.id, name: contact.name, phone: contact.phone };
}

/** Deletes a contact; one already gone (deleted on another device) is gone as asked. */
export async function removeContact(id: string) {
  await api(`/api/contacts/${id}/delete`, {}).catch((error: unknown) => {
    if (!(error instanceof ApiError && error.status === 404)) throw error;
  });
}

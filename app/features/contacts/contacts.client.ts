import { decryptText, deriveContactsKey, encryptText } from "~/crypto";
import { api } from "~/lib/api.client";
import { KeysMissingError } from "~/lib/errors";
import { deviceKeys } from "~/features/auth/device-keys.client";
import { sortContactsByName } from "~/features/contacts/whatsapp";

export interface Contact {
  id: string;
  name: string;
  phone: string;
}

interface EncryptedContact {
  id: string;
  name: string;
  phoneNumber: string;
}

const aad = (userId: string, field: string) => `chatcrypt:contact:v1:${userId}:${field}`;

// The contact key comes from the user's own ECDH key pair (design.md §3), never from public data.
const keys = new Map<string, Promise<CryptoKey>>();
async function contactsKey(userId: string): Promise<CryptoKey> {
  let key = keys.get(userId);
  if (!key) {
    key = deviceKeys(userId).then((bundle) => {
      if (!bundle) throw new KeysMissingError();
      return deriveContactsKey(bundle.ecdhPrivateKey, bundle.ecdhPublicKey);
    });
    keys.set(userId, key);
    key.catch(() => keys.delete(userId));
  }
  return key;
}

/** The contact book, decrypted and sorted by name; entries that fail to decrypt are left out. */
export async function loadContacts(userId: string): Promise<Contact[]> {
  const key = await contactsKey(userId);
  const { contacts } = await api<{ contacts: EncryptedContact[] }>("/api/contacts");
  const decrypted = await Promise.all(
    contacts.map(async (c) => {
      try {
        const [name, phone] = await Promise.all([decryptText(key, c.name, aad(userId, "name")), decryptText(key, c.phoneNumber, aad(userId, "phone"))]);
        return { id: c.id, name, phone };
      } catch {
        return null;
      }
    }),
  );
  return sortContactsByName(decrypted.filter((c): c is Contact => c !== null));
}

export async function saveContact(userId: string, contact: { id?: string; name: string; phone: string }): Promise<Contact> {
  const key = await contactsKey(userId);
  const [name, phoneNumber] = await Promise.all([encryptText(key, contact.name, aad(userId, "name")), encryptText(key, contact.phone, aad(userId, "phone"))]);
  const { contact: saved } = await api<{ contact: EncryptedContact }>("/api/contacts", { ...(contact.id ? { id: contact.id } : {}), name, phoneNumber });
  return { id: saved.id, name: contact.name, phone: contact.phone };
}

export async function removeContact(id: string) {
  await api(`/api/contacts/${id}/delete`, {});
}

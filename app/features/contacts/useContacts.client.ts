import { useState } from "react";
import { KeysMissingError } from "~/lib/errors";
import type { Contact } from "~/features/contacts/contacts.client";

// The contact book's code loads when it is first opened (not part of the first load); WhatsApp mode
// needs a contact chosen from it, so sending finds it loaded.
const book = () => import("~/features/contacts/contacts.client");
const links = () => import("~/features/contacts/whatsapp");

const WHATSAPP_FALLBACK_MS = 1_500;

/** WhatsApp hand-off: the deep link first; if the page still has focus after 1.5 s, the web URL in a popup. */
export async function sendViaWhatsapp(contact: Contact, text: string) {
  const { whatsappDeepLink, whatsappWebUrl } = await links();
  const link = document.createElement("a");
  link.href = whatsappDeepLink(contact.phone, text);
  link.rel = "noopener";
  document.body.appendChild(link);
  link.click();
  link.remove();
  setTimeout(() => {
    if (document.hasFocus()) window.open(whatsappWebUrl(contact.phone, text), "_blank", "noopener,noreferrer");
  }, WHATSAPP_FALLBACK_MS);
}

/** The encrypted WhatsApp contact book and WhatsApp mode (spec §9): which contact messages go to. */
export function useContacts(userId: string) {
  const [contacts, setContacts] = useState<Contact[] | null>(null);
  const [mode, setMode] = useState(false);
  const [recipient, setRecipient] = useState<Contact | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  function load() {
    setError(null);
    book()
      .then((m) => m.loadContacts(userId))
      .then(setContacts, (failure) => {
        console.warn("Contacts could not be loaded", failure);
        setContacts([]);
        setError(failure instanceof KeysMissingError ? failure.message : "Contacts could not be loaded.");
      });
  }

  async function change(action: () => Promise<void>, failure: string): Promise<boolean> {
    setBusy(true);
    setError(null);
    try {
      await action();
      return true;
    } catch (cause) {
      console.warn(failure, cause);
      setError(failure);
      return false;
    } finally {
      setBusy(false);
    }
  }

  const save = (contact: { id?: string; name: string; phone: string }) =>
    change(async () => {
      const { loadContacts, saveContact } = await book();
      const saved = await saveContact(userId, contact);
      setContacts(await loadContacts(userId));
      if (recipient?.id === saved.id) setRecipient(saved);
    }, "Failed to save contact. Please try again.");

  const remove = (contact: Contact) =>
    change(async () => {
      await (await book()).removeContact(contact.id);
      setContacts((current) => current?.filter((c) => c.id !== contact.id) ?? null);
      if (recipient?.id === contact.id) setRecipient(null);
    }, "Failed to delete contact. Please try again.");

  function choose(contact: Contact) {
    setRecipient(contact);
    setMode(true);
  }

  return { contacts, mode, setMode, recipient, choose, busy, error, load, save, remove };
}

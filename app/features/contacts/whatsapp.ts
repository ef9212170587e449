/** The WhatsApp contact book (stored encrypted) and the hand-off links that open WhatsApp. */
import { isBlank } from "~/lib/visible";

export const PHONE_EXAMPLE = "+1234567890";

const NAME_REQUIRED = "Name is required.";
const PHONE_REQUIRED = "Phone number is required.";
const PHONE_NEEDS_COUNTRY_CODE = `Phone number must include the country code, for example ${PHONE_EXAMPLE}.`;

// E.164: "+", a country code that does not start with 0, at most 15 digits in all.
const INTERNATIONAL_PHONE = /^\+[1-9][0-9]{6,14}$/u;

/** A phone number as typed, without spaces, dashes, dots and parentheses: "+1 (234) 567-890" → "+1234567890". */
export function normalizePhone(raw: string): string {
  return raw.trim().replace(/[\s\-.()]/gu, "");
}

export type ContactValidation = { ok: true; name: string; phone: string } | { ok: false; error: string };

/** Checks a contact before it is encrypted and saved; answers the trimmed name and normalized phone. */
export function validateContact(input: { name: string; phone: string }): ContactValidation {
  const name = input.name.trim();
  if (isBlank(name)) return { ok: false, error: NAME_REQUIRED };
  const phone = normalizePhone(input.phone);
  if (phone === "") return { ok: false, error: PHONE_REQUIRED };
  if (!INTERNATIONAL_PHONE.test(phone)) return { ok: false, error: PHONE_NEEDS_COUNTRY_CODE };
  return { ok: true, name, phone };
}

// WhatsApp wants the number as digits only, country code first, no "+".
function phoneDigits(phone: string): string {
  return normalizePhone(phone).replace(/[^0-9]/gu, "");
}

/** Opens the WhatsApp app with a message to send. */
export function whatsappDeepLink(phone: string, text: string): string {
  return `whatsapp://send?phone=${phoneDigits(phone)}&text=${encodeURIComponent(text)}`;
}

/** The web fallback when the app does not open. */
export function whatsappWebUrl(phone: string, text: string): string {
  return `https://api.whatsapp.com/send?phone=${phoneDigits(phone)}&text=${encodeURIComponent(text)}`;
}

const byName = new Intl.Collator(undefined, { sensitivity: "accent", numeric: true });

/** A sorted copy, by name in the reader's language, ignoring case; equal names keep their order. */
export function sortContactsByName<T extends { name: string }>(list: T[]): T[] {
  return [...list].sort((a, b) => byName.compare(a.name, b.name));
}

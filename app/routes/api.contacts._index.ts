import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { listContacts, saveContact } from "~/features/contacts/contacts.server";
import { jsonResponse, readJson, requireCsrf, requirePost, requireUser } from "~/server/http.server";

const cipher = z
  .string()
  .min(1)
  .max(4000)
  .regex(/^[A-Za-z0-9_-]+$/, "Contact fields must be encrypted.");
// The browser chooses a new contact's id (its fields are encrypted bound to it); `isNew` says create.
const contactSchema = z
  .object({ id: z.string().regex(/^[a-z0-9]{15}$/), isNew: z.boolean().optional(), name: cipher, phoneNumber: cipher })
  .strict();

/** The WhatsApp contact book: names and numbers are encrypted in the browser with the user's contact key. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const { pb, userId } = await requireUser(request, context);
  return jsonResponse({ contacts: await listContacts(pb, userId) });
}

export async function action({ request, context }: ActionFunctionArgs) {
  requirePost(request);
  await requireCsrf(request);
  const { pb, userId } = await requireUser(request, context);
  const body = await readJson(request, contactSchema);
  return jsonResponse({ contact: await saveContact(pb, userId, body) });
}

import type { ActionFunctionArgs } from "@remix-run/node";
import { deleteContact } from "~/features/contacts/contacts.server";
import { fail, jsonResponse, requireCsrf, requirePost, requireUser } from "~/server/http.server";

export async function action({ request, params, context }: ActionFunctionArgs) {
  requirePost(request);
  await requireCsrf(request);
  const { pb } = await requireUser(request, context);
  if (!/^[a-z0-9]{15}$/.test(params.id ?? "")) fail(400, "Invalid contact id.");
  await deleteContact(pb, params.id!);
  return jsonResponse({ ok: true });
}

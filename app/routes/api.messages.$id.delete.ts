import type { ActionFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { deleteMessage } from "~/features/messages/messages.server";
import { fail, jsonResponse, requireCsrf, requirePost, requireUser } from "~/server/http.server";

const messageId = z.string().regex(/^[a-z0-9]{15}$/);

/** Deletes one message for everyone: the sender's own, or any in a channel the caller created. */
export async function action({ request, params, context }: ActionFunctionArgs) {
  requirePost(request);
  await requireCsrf(request);
  const id = messageId.safeParse(params.id ?? "");
  if (!id.success) fail(400, "Invalid message id.");
  const { pb } = await requireUser(request, context);
  await deleteMessage(pb, id.data);
  return jsonResponse({ ok: true });
}

import type { ActionFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { recordId } from "~/lib/schemas";
import { callHook } from "~/server/hooks.server";
import { jsonResponse, readJson, requireCsrf, requirePost, requireUser } from "~/server/http.server";

const schema = z.object({
  channelName: z.string().min(1).max(100),
  senderUsername: z.string().min(1).max(32),
  messageContent: z.string().max(20_000).optional(),
  mention: z.boolean().optional(),
  /** A direct conversation: the email names no conversation (a group's name is sealed inside it). */
  direct: z.boolean().optional(),
  /** The message it is about: each of the user's open pages asks, one mail goes. */
  messageId: recordId.optional(),
});

/**
 * The spec's send-email-notification. The server function mails only the caller's own address, and only
 * includes the text when the caller opted in; the result is not shown to the user.
 */
export async function action({ request, context }: ActionFunctionArgs) {
  requirePost(request);
  await requireCsrf(request);
  const { pb } = await requireUser(request, context);
  const body = await readJson(request, schema);
  const result = await callHook<{ sent: boolean; reason?: string }>(pb, "/api/chat/notify-email", body, "Email notification failed");
  return jsonResponse(result);
}

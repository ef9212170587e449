import type { ActionFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { channelIdParam } from "~/features/channels/params.server";
import { fail, jsonResponse, readJson, requireCsrf, requirePost, requireSessionCookie } from "~/server/http.server";
import { pbErrorMessage, pbStatus, pocketbasePost } from "~/server/pocketbase.server";

const typingSchema = z
  .object({
    data: z
      .string()
      .max(600)
      .regex(/^[A-Za-z0-9_-]*$/, "Typing events must be sealed."),
  })
  .strict();

// POST /api/channels/:id/typing {data}: tells the other members' open pages that the user is typing
// (pocketbase/typing.go: through the live relay, never stored).
export async function action({ request, params, context }: ActionFunctionArgs) {
  requirePost(request);
  await requireCsrf(request);
  const channelId = channelIdParam(params);
  const { token } = await requireSessionCookie(request);
  const body = await readJson(request, typingSchema);
  try {
    await pocketbasePost("/api/chat/typing", { channel: channelId, data: body.data }, { token, context });
  } catch (error) {
    const status = pbStatus(error);
    fail(status >= 400 && status < 500 ? status : 502, pbErrorMessage(error) ?? "The typing indicator could not be sent.");
  }
  return jsonResponse({ ok: true });
}

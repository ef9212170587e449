import type { ActionFunctionArgs } from "@remix-run/node";
import { removeFromCall } from "~/features/calls/removal.server";
import { failOnOutage } from "~/server/outage.server";
import { fail, jsonResponse, requireCsrf, requirePost, requireUser } from "~/server/http.server";
import { pbErrorMessage, pbStatus } from "~/server/pocketbase.server";
import { requireLiveSessionAfterRefusal } from "~/server/session-check.server";

type Change = "deactivate" | "reactivate";

/**
 * POST /api/admin/people/:id/deactivate and /reactivate (ADR 0056): PocketBase decides who may
 * (pb_hooks/deactivate.pb.js); after a deactivation the person's devices leave every call of the
 * conversations they were in at once (their sessions and memberships already ended there).
 */
export async function changeStatus({ request, params, context }: ActionFunctionArgs, change: Change) {
  requirePost(request);
  await requireCsrf(request);
  const { pb, token } = await requireUser(request, context);
  const userId = params.id ?? "";
  if (!/^[a-z0-9]{15}$/.test(userId)) fail(404, "No such person.");
  let answer: { user_id: string; channels?: string[]; already?: boolean };
  try {
    answer = await pb.send(`/api/chat/admin/people/${change}`, { method: "POST", body: { user_id: userId } });
  } catch (error) {
    failOnOutage(error);
    const status = pbStatus(error);
    if (status === 401) await requireLiveSessionAfterRefusal(token, context);
    if (status >= 400 && status < 500) fail(status, pbErrorMessage(error) ?? "This could not be done.");
    fail(502, `The account could not be ${change}d. Please try again.`);
  }
  const channels = answer.channels ?? [];
  await Promise.all(channels.map((channel) => removeFromCall(channel, userId)));
  // (`already`: another administrator did it meanwhile, or a retry: the console says so)
  return jsonResponse({ ok: true, channels: channels.length, ...(answer.already ? { already: true } : {}) });
}

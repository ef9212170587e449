import type { LoaderFunctionArgs } from "@remix-run/node";
import { channelIdParam } from "~/features/channels/params.server";
import { channelAccess } from "~/features/invites/invites.server";
import { jsonResponse, requireUser } from "~/server/http.server";

/** What the caller may manage in the channel: its invites, bans and channel admins ({manage: ""} for a plain member). */
export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const channelId = channelIdParam(params);
  const { pb } = await requireUser(request, context);
  return jsonResponse(await channelAccess(pb, channelId));
}

import type { LoaderFunctionArgs } from "@remix-run/node";
import { channelIdParam } from "~/features/channels/params.server";
import { listMembers } from "~/features/members/members.server";
import { jsonResponse, requireUser } from "~/server/http.server";

/** The channel's members (usernames; the creator marked), for members only. */
export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const channelId = channelIdParam(params);
  const { pb } = await requireUser(request, context);
  return jsonResponse({ members: await listMembers(pb, channelId) });
}

import type { LoaderFunctionArgs } from "@remix-run/node";
import { channelIdParam } from "~/features/channels/params.server";
import { listMemberEvents, listMembers } from "~/features/members/members.server";
import { jsonResponse, requireUser } from "~/server/http.server";

/** The channel's members (usernames; the creator marked) and its latest membership lines, for members only. */
export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const channelId = channelIdParam(params);
  const { pb } = await requireUser(request, context);
  const [members, events] = await Promise.all([listMembers(pb, channelId), listMemberEvents(pb, channelId)]);
  return jsonResponse({ members, events });
}

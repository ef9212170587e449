import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { messagePageSchema } from "~/features/channels/validation";
import { fail, jsonResponse, requireUser } from "~/server/http.server";
import { listMessages } from "~/features/messages/messages.server";
import { postMessage } from "~/features/messages/post.server";
import { channelIdParam } from "~/features/channels/params.server";

export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const channelId = channelIdParam(params);
  const { pb } = await requireUser(request, context);
  const query = messagePageSchema.safeParse(Object.fromEntries(new URL(request.url).searchParams));
  if (!query.success) fail(400, "Invalid message page.");
  return jsonResponse(await listMessages(pb, channelId, query.data));
}

export async function action({ request, params, context }: ActionFunctionArgs) {
  return jsonResponse(await postMessage(request, params, context));
}

import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { channelIdParam } from "~/features/channels/params.server";
import { archiveEntries, archivePage, archiveSchema } from "~/features/archive/archive.server";
import { fail, jsonResponse, readJson, requireCsrf, requirePost, requireUser } from "~/server/http.server";

// The caller's message archive of one sealed channel or direct conversation (ADR 0048):
// GET /api/archive/:id?page=N (from 1): {entries: [{messageId, data, gift?}], hasMore}, oldest first.
// POST /api/archive/:id {entries: [{messageId, data}], for?} (at most 100): {stored}; `for`: ADR 0099.
export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const channelId = channelIdParam(params);
  const page = new URL(request.url).searchParams.get("page") ?? "1";
  if (!/^[1-9][0-9]{0,5}$/.test(page)) fail(400, "page must be a whole number, 1 or more.");
  const { pb, userId } = await requireUser(request, context);
  return jsonResponse(await archivePage(pb, userId, channelId, Number(page)));
}

export async function action({ request, params, context }: ActionFunctionArgs) {
  requirePost(request);
  await requireCsrf(request);
  const channelId = channelIdParam(params);
  const { pb } = await requireUser(request, context);
  return jsonResponse(await archiveEntries(pb, channelId, await readJson(request, archiveSchema)));
}

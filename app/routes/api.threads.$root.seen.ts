import type { ActionFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { recordTime } from "~/lib/schemas";
import { markThreadSeen } from "~/features/threads/seen.server";
import { fail, jsonResponse, readJson, requireCsrf, requirePost, requireUser } from "~/server/http.server";

const seenSchema = z.object({ at: recordTime }).strict();

/** POST /api/threads/:root/seen: the caller saw the thread up to the reply of `at` (on any device: ADR 0097). */
export async function action({ request, params, context }: ActionFunctionArgs) {
  requirePost(request);
  await requireCsrf(request);
  const root = params.root ?? "";
  if (!/^[a-z0-9]{15}$/.test(root)) fail(400, "Invalid thread id.");
  const { pb, userId } = await requireUser(request, context);
  const body = await readJson(request, seenSchema);
  return jsonResponse({ seen: await markThreadSeen(pb, userId, root, body.at) });
}

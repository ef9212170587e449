import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { channelIdParam } from "~/features/channels/params.server";
import { commitsSince, isSealedOperation, sealedSchemas, sealedWrite, welcomesOf } from "~/features/sealed/sealed.server";
import { fail, jsonResponse, readJson, requireCsrf, requirePost, requireUser } from "~/server/http.server";

// Sealed channels' delivery service (app/features/sealed/sealed.server.ts):
// GET /api/sealed/:id/commits?since=N, GET /api/sealed/:id/welcomes;
// POST /api/sealed/:id/{group,commits,reset,group-info,external-join}.
export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const channelId = channelIdParam(params);
  if (params.op === "welcomes") return jsonResponse(await welcomesOf((await requireUser(request, context)).pb, channelId));
  if (params.op !== "commits") fail(404, "Not found.");
  const since = new URL(request.url).searchParams.get("since") ?? "";
  if (!/^[0-9]{1,9}$/.test(since)) fail(400, "since must be a whole number, 0 or more.");
  const { pb } = await requireUser(request, context);
  return jsonResponse(await commitsSince(pb, channelId, Number(since)));
}

export async function action({ request, params, context }: ActionFunctionArgs) {
  requirePost(request);
  await requireCsrf(request);
  const channelId = channelIdParam(params);
  const op = params.op;
  if (!isSealedOperation(op)) fail(404, "Not found.");
  const { pb } = await requireUser(request, context);
  const body = await readJson(request, sealedSchemas[op]);
  return jsonResponse(await sealedWrite(pb, channelId, op, body));
}

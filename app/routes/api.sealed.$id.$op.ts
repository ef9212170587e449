import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { channelIdParam } from "~/features/channels/params.server";
import { commitsSince, isSealedOperation, sealedSchemas, sealedWrite, welcomesOf } from "~/features/sealed/sealed.server";
import { afterCommit, commitsWithMessages } from "~/features/sealed/catch-up.server";
import { fail, jsonResponse, readJson, requireCsrf, requirePost, requireUser } from "~/server/http.server";

// Sealed channels' delivery service (app/features/sealed/sealed.server.ts):
// GET /api/sealed/:id/commits?since=N[&messages=1], GET /api/sealed/:id/welcomes;
// POST /api/sealed/:id/{group,commits,reset,group-info,external-join}. With messages=1 (a commit: messages:
// true) the answer also carries the messages of epoch N (the commit's), for the page to read (catch-up.server.ts).
export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const channelId = channelIdParam(params);
  if (params.op === "welcomes") return jsonResponse(await welcomesOf((await requireUser(request, context)).pb, channelId));
  if (params.op !== "commits") fail(404, "Not found.");
  const query = new URL(request.url).searchParams;
  const since = query.get("since") ?? "";
  if (!/^[0-9]{1,9}$/.test(since)) fail(400, "since must be a whole number, 0 or more.");
  const messages = query.get("messages");
  if (messages !== null && messages !== "1") fail(400, "messages must be 1 when given.");
  const { pb } = await requireUser(request, context);
  return jsonResponse(await (messages ? commitsWithMessages : commitsSince)(pb, channelId, Number(since)));
}

export async function action({ request, params, context }: ActionFunctionArgs) {
  requirePost(request);
  await requireCsrf(request);
  const channelId = channelIdParam(params);
  const op = params.op;
  if (!isSealedOperation(op)) fail(404, "Not found.");
  const { pb } = await requireUser(request, context);
  const body = await readJson(request, sealedSchemas[op]);
  const written = await sealedWrite(pb, channelId, op, body);
  if (op === "commits" && "messages" in body && body.messages)
    return jsonResponse({ ...written, ...(await afterCommit(pb, channelId, body.epoch)) });
  return jsonResponse(written);
}

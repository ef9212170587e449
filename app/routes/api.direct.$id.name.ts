import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { channelIdParam } from "~/features/channels/params.server";
import { readSealedName, storeSealedName } from "~/features/direct/direct.server";
import { sealedNameSchema } from "~/features/direct/validation";
import { jsonResponse, readJson, requireCsrf, requirePost, requireUser } from "~/server/http.server";

// GET  /api/direct/:id/name: the group's sealed name ({sealed}, "" when none), participants only.
// POST /api/direct/:id/name {epoch, sealed}: keeps it sealed for the group's current epoch (409 otherwise).
export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const { pb } = await requireUser(request, context);
  return jsonResponse({ sealed: await readSealedName(pb, channelIdParam(params)) });
}

export async function action({ request, params, context }: ActionFunctionArgs) {
  requirePost(request);
  await requireCsrf(request);
  const id = channelIdParam(params);
  const { pb } = await requireUser(request, context);
  return jsonResponse(await storeSealedName(pb, id, await readJson(request, sealedNameSchema)));
}

import type { LoaderFunctionArgs } from "@remix-run/node";
import { inviteIdSchema, param, previewInvite } from "~/features/invites/invites.server";
import { jsonResponse } from "~/server/http.server";
import { pocketbaseFor } from "~/server/pocketbase.server";

/** What an invite's landing page shows before anything is joined: valid, expired, revoked or used, and who invited. */
export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const id = param(inviteIdSchema, params.id);
  const { pb } = await pocketbaseFor(request, context);
  return jsonResponse(await previewInvite(pb, id));
}

import type { ActionFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { deletePushSubscription } from "~/features/push/push.server";
import { jsonResponse, readJson, requireCsrf, requirePost, requireUser } from "~/server/http.server";

const schema = z.object({ endpoint: z.string().url("endpoint must be an address.").max(2000) }).strict();

/** Forgets this browser's push subscription (turned off, or signing out). */
export async function action({ request, context }: ActionFunctionArgs) {
  requirePost(request);
  await requireCsrf(request);
  const { pb } = await requireUser(request, context);
  await deletePushSubscription(pb, (await readJson(request, schema)).endpoint);
  return jsonResponse({ ok: true });
}

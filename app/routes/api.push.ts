import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { pushKey, savePushSubscription } from "~/features/push/push.server";
import { describeUserAgent } from "~/lib/user-agent";
import { jsonResponse, readJson, requireCsrf, requirePost, requireUser } from "~/server/http.server";

const key = (min: number, max: number) =>
  z
    .string()
    .min(min)
    .max(max)
    .regex(/^[A-Za-z0-9_-]+$/, "Push keys must be base64url.");

const subscribeSchema = z
  .object({
    endpoint: z.string().url("endpoint must be an address.").max(2000),
    keys: z.object({ p256dh: key(80, 100), auth: key(16, 32) }),
  })
  .strict();

/** The server's VAPID public key, for PushManager.subscribe. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const { pb } = await requireUser(request, context);
  return jsonResponse({ publicKey: await pushKey(pb) });
}

/** Keeps this browser's push subscription for the signed-in user. */
export async function action({ request, context }: ActionFunctionArgs) {
  requirePost(request);
  await requireCsrf(request);
  const { pb, userId } = await requireUser(request, context);
  const device = describeUserAgent(request.headers.get("User-Agent") ?? "");
  await savePushSubscription(pb, userId, { ...(await readJson(request, subscribeSchema)), device });
  return jsonResponse({ ok: true });
}

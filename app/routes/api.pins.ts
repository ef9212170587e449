import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { listPins, savePin } from "~/features/pins/pins.server";
import { jsonResponse, readJson, requireCsrf, requirePost, requireUser } from "~/server/http.server";

const pinSchema = z
  .object({
    subjectId: z.string().regex(/^[a-z0-9]{15}$/, "subjectId must be a user id."),
    data: z
      .string()
      .min(1)
      .max(4000)
      .regex(/^[A-Za-z0-9_-]+$/, "Key pins must be encrypted."),
  })
  .strict();

/** The caller's key pins: other users' identity keys as first seen, encrypted in the browser under the keyring key. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const { pb, userId } = await requireUser(request, context);
  return jsonResponse({ pins: await listPins(pb, userId) });
}

export async function action({ request, context }: ActionFunctionArgs) {
  requirePost(request);
  await requireCsrf(request);
  const { pb, userId } = await requireUser(request, context);
  const body = await readJson(request, pinSchema);
  return jsonResponse({ pin: await savePin(pb, userId, body) });
}

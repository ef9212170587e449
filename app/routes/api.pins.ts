import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { listPins, savePins } from "~/features/key-pins/pins.server";
import { MAX_PINS_PER_SAVE } from "~/conversation/senders/types";
import { jsonResponse, readJson, requireCsrf, requirePost, requireUser } from "~/server/http.server";

const sealed = (max: number) =>
  z
    .string()
    .min(1)
    .max(max)
    .regex(/^[A-Za-z0-9_-]+$/, "Key pins must be encrypted.");

const pinSchema = z.object({ subjectId: z.string().regex(/^[a-z0-9]{15}$/, "subjectId must be a user id."), data: sealed(4000) }).strict();

const saveSchema = z
  .object({
    pin: pinSchema.optional(),
    // the users a device saw for the first time while its previous save ran, saved together
    pins: z.array(pinSchema).min(1).max(MAX_PINS_PER_SAVE).optional(),
    head: z.object({ counter: z.number().int().min(1), data: sealed(250_000) }).strict(),
  })
  .strict();

/** The caller's key pins (other users' identity keys as first seen) and their head, sealed in the browser under the keyring key. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const { pb, userId } = await requireUser(request, context);
  return jsonResponse(await listPins(pb, userId));
}

export async function action({ request, context }: ActionFunctionArgs) {
  requirePost(request);
  await requireCsrf(request);
  const { pb } = await requireUser(request, context);
  return jsonResponse(await savePins(pb, await readJson(request, saveSchema)));
}

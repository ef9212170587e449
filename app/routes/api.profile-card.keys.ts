import type { ActionFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { userIdSchema } from "~/features/profile-cards/validation";
import { saveKeys } from "~/features/profile-cards/cards.server";
import { MAX_KEYS_PER_REQUEST, MAX_SEALED_KEY_CHARS } from "~/features/profile-cards/types";
import { jsonResponse, readJson, requireCsrf, requirePost, requireUser } from "~/server/http.server";

const bodySchema = z
  .object({
    keys: z
      .array(
        z
          .object({
            reader: userIdSchema,
            sealedKey: z
              .string()
              .min(1)
              .max(MAX_SEALED_KEY_CHARS)
              .regex(/^[A-Za-z0-9_-]+$/, "A sealed key must be encrypted."),
          })
          .strict(),
      )
      .min(1)
      .max(MAX_KEYS_PER_REQUEST),
    prune: z.boolean().optional(),
  })
  .strict();

/** The caller's profile key sealed to people they share a conversation with (ADR 0075). */
export async function action({ request, context }: ActionFunctionArgs) {
  requirePost(request);
  await requireCsrf(request);
  const { pb, userId } = await requireUser(request, context);
  const { keys, prune } = await readJson(request, bodySchema);
  await saveKeys(pb, userId, keys, prune ?? false);
  return jsonResponse({ ok: true });
}

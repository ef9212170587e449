import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { ownCard, saveCard } from "~/features/profile-cards/cards.server";
import { CARD_TOO_LARGE, MAX_CARD_CHARS } from "~/features/profile-cards/types";
import { fail, jsonResponse, readJson, requireCsrf, requirePost, requireUser } from "~/server/http.server";

const bodySchema = z
  .object({
    card: z
      .string()
      .min(1)
      .regex(/^[A-Za-z0-9_-]+$/, "A profile must be encrypted.")
      .optional(),
    remove: z.literal(true).optional(),
  })
  .strict()
  .refine((body) => (body.card === undefined) !== (body.remove === undefined), "Send either an encrypted card or remove: true.");

/** The caller's own card (ciphertext), the readers its key is sealed to, and the people it may be. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const { pb, userId } = await requireUser(request, context);
  return jsonResponse(await ownCard(pb, userId));
}

/** Saves the caller's card, encrypted in the browser (ADR 0075), or removes it (and its sealed keys) with `remove: true`. */
export async function action({ request, context }: ActionFunctionArgs) {
  requirePost(request);
  await requireCsrf(request);
  const { pb, userId } = await requireUser(request, context);
  const { card } = await readJson(request, bodySchema);
  if (card && card.length > MAX_CARD_CHARS) fail(413, CARD_TOO_LARGE);
  await saveCard(pb, userId, card ?? null);
  return jsonResponse({ ok: true });
}

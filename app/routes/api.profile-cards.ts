import type { LoaderFunctionArgs } from "@remix-run/node";
import { readCards } from "~/features/profile-cards/cards.server";
import { userIdsSchema } from "~/features/profile-cards/validation";
import { fail, jsonResponse, requireUser } from "~/server/http.server";

/** Others' cards the caller may read (ciphertext), each with the profile key sealed to the caller. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const { pb, userId } = await requireUser(request, context);
  const raw = (new URL(request.url).searchParams.get("ids") ?? "").split(",").filter(Boolean);
  const ids = userIdsSchema.safeParse([...new Set(raw)]);
  if (!ids.success) fail(400, "ids must be 1 to 100 user ids separated by commas.");
  return jsonResponse({ cards: await readCards(pb, userId, ids.data) });
}

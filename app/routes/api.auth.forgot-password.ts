import type { ActionFunctionArgs } from "@remix-run/node";
import { askForReset } from "~/features/recovery/recovery.server";
import { forgotPasswordSchema } from "~/features/recovery/validation";
import { jsonResponse, readJson, requireCsrf, requirePost } from "~/server/http.server";
import { pocketbase } from "~/server/pocketbase.server";

/** "Forgot your password?": PocketBase emails a reset link; the answer is the same for every address. */
export async function action({ request, context }: ActionFunctionArgs) {
  requirePost(request);
  await requireCsrf(request);
  const { email } = await readJson(request, forgotPasswordSchema);
  return jsonResponse({ message: await askForReset(pocketbase(undefined, context), email) });
}

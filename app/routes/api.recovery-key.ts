import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { recoveryKeyStatus, saveRecoveryWrapping } from "~/features/recovery/recovery.server";
import { recoveryWrappingSchema } from "~/features/recovery/validation";
import { jsonResponse, readJson, requireCsrf, requirePost, requireUser } from "~/server/http.server";

/** Whether the caller has a recovery key, and since when. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const { pb, userId } = await requireUser(request, context);
  return jsonResponse(await recoveryKeyStatus(pb, userId));
}

/** Stores the identity keys wrapped under a new recovery key (made in the browser); replaces the old one. */
export async function action({ request, context }: ActionFunctionArgs) {
  requirePost(request);
  await requireCsrf(request);
  const { pb } = await requireUser(request, context);
  const body = await readJson(request, recoveryWrappingSchema);
  return jsonResponse(await saveRecoveryWrapping(pb, body));
}

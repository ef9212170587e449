import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { channelIdSchema } from "~/features/channels/validation";
import { listKeyring, saveKeyringEntry } from "~/features/keyring/keyring.server";
import { jsonResponse, readJson, requireCsrf, requirePost, requireUser } from "~/server/http.server";

const entrySchema = z
  .object({
    channelId: channelIdSchema,
    data: z
      .string()
      .min(1)
      .max(4000)
      .regex(/^[A-Za-z0-9_-]+$/, "Keyring entries must be encrypted."),
  })
  .strict();

/** The caller's keyring: channel passwords encrypted in the browser under the keyring key. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const { pb, userId } = await requireUser(request, context);
  return jsonResponse({ entries: await listKeyring(pb, userId) });
}

export async function action({ request, context }: ActionFunctionArgs) {
  requirePost(request);
  await requireCsrf(request);
  const { pb, userId } = await requireUser(request, context);
  const body = await readJson(request, entrySchema);
  return jsonResponse({ entry: await saveKeyringEntry(pb, userId, body) });
}

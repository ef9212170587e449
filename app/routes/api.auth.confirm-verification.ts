import type { ActionFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { fail, jsonResponse, readJson, requireCsrf, requirePost } from "~/server/http.server";
import { pbStatus, pocketbase } from "~/server/pocketbase.server";

const schema = z.object({ token: z.string().min(1, "The verification link is incomplete.").max(4096) });

export const INVALID_LINK = "This verification link is invalid or has expired. Ask for a new one in Notification Settings.";

/** Confirms the token of a verification email (the /verify-email page sends it); no session needed. */
export async function action({ request, context }: ActionFunctionArgs) {
  requirePost(request);
  await requireCsrf(request);
  const { token } = await readJson(request, schema);
  try {
    await pocketbase(undefined, context).collection("users").confirmVerification(token);
  } catch (error) {
    const status = pbStatus(error);
    if (status === 400 || status === 404) fail(400, INVALID_LINK);
    if (status === 429) fail(429, "Too many attempts. Please wait a few minutes and try again.");
    fail(502, "The email address could not be verified. Please try again.");
  }
  return jsonResponse({ verified: true });
}

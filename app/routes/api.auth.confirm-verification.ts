import type { ActionFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { fail, jsonResponse, readJson, requireCsrf, requirePost } from "~/server/http.server";
import { pbErrorMessage, pbStatus, pocketbase } from "~/server/pocketbase.server";

const schema = z.object({ token: z.string().min(1, "The verification link is incomplete.").max(4096) });

export const INVALID_LINK = "This verification link is invalid or has expired. Ask for a new one in Notification Settings.";

/**
 * Confirms the token of a verification email (the /verify-email page sends it); no session needed. The
 * link mailed at sign-up attaches the address it names (docs/decisions/0082-pending-email-at-sign-up.md);
 * any other token is PocketBase's verification of an address the account already has.
 */
export async function action({ request, context }: ActionFunctionArgs) {
  requirePost(request);
  await requireCsrf(request);
  const { token } = await readJson(request, schema);
  const pb = pocketbase(undefined, context);
  try {
    await pb.send("/api/chat/email-link/confirm", { method: "POST", body: { token } });
    return jsonResponse({ verified: true });
  } catch (error) {
    const status = pbStatus(error);
    if (status === 409) fail(409, pbErrorMessage(error) ?? INVALID_LINK);
    if (status === 429) fail(429, "Too many attempts. Please wait a few minutes and try again.");
    if (status !== 400) fail(502, "The email address could not be verified. Please try again.");
  }
  try {
    await pb.collection("users").confirmVerification(token);
  } catch (error) {
    const status = pbStatus(error);
    if (status === 400 || status === 404) fail(400, INVALID_LINK);
    if (status === 429) fail(429, "Too many attempts. Please wait a few minutes and try again.");
    fail(502, "The email address could not be verified. Please try again.");
  }
  return jsonResponse({ verified: true });
}

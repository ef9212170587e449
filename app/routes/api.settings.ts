import type { ActionFunctionArgs } from "@remix-run/node";
import { settingsRequestSchema } from "~/features/settings/validation";
import { fail, jsonResponse, readJson, requireCsrf, requirePost, requireUser } from "~/server/http.server";
import { pbStatus } from "~/server/pocketbase.server";
import { loadSessionUser } from "~/features/auth/users.server";

const COLUMNS = {
  emailNotificationsEnabled: "email_notifications_enabled",
  emailIncludeContent: "email_include_content",
  encryptedSettings: "encrypted_settings",
} as const;

/**
 * Saves the caller's own settings (PocketBase's update rule allows only their own record): the email
 * switches in clear, everything else as the ciphertext sealed in the browser.
 */
export async function action({ request, context }: ActionFunctionArgs) {
  requirePost(request);
  await requireCsrf(request);
  const { pb, userId } = await requireUser(request, context);
  const body = await readJson(request, settingsRequestSchema);
  const update: Record<string, unknown> = {};
  for (const [field, column] of Object.entries(COLUMNS)) {
    const value = body[field as keyof typeof body];
    if (value !== undefined) update[column] = value;
  }
  if (Object.keys(update).length === 0) fail(400, "Nothing to save.");
  try {
    await pb.collection("users").update(userId, update);
  } catch (error) {
    fail(pbStatus(error) === 400 ? 400 : 502, "Failed to save settings. Please try again.");
  }
  const user = await loadSessionUser(pb, userId);
  if (!user) fail(401, "Not authenticated");
  return jsonResponse({ settings: user.settings, encryptedSettings: user.encryptedSettings });
}

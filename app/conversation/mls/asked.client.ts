/**
 * Whom this user asked into a group conversation they started (ADR 0052), kept on the device that
 * started it: while nobody has accepted, the server lists only the requester as a member (requests are
 * the asked person's alone to read), so the page names them from here ("Waiting for bob and carol to
 * accept your request"). Sealed under the user's vault key like the group names (direct/names.client),
 * bound to the user and the conversation. Another device of the requester says "the others".
 */
import { openJson, sealJson } from "~/conversation/keyring/vault.client";
import { namesList } from "~/lib/names-list";

const entry = (userId: string, conversationId: string) => `chatcrypt.direct-asked.${userId}.${conversationId}`;
const aad = (userId: string, conversationId: string) => `chatcrypt:direct-asked:v1:${userId}:${conversationId}`;

export async function rememberAsked(userId: string, conversationId: string, usernames: readonly string[]) {
  localStorage.setItem(entry(userId, conversationId), await sealJson(userId, "sealed", [...usernames], aad(userId, conversationId)));
}

/** "bob", "bob and carol", "bob, carol and dave"; "the others" when this device did not start it. */
export async function askedText(userId: string, conversationId: string): Promise<string> {
  const stored = localStorage.getItem(entry(userId, conversationId));
  const names = stored ? await openJson(userId, "sealed", stored, aad(userId, conversationId)).catch(() => null) : null;
  if (!Array.isArray(names) || names.length === 0 || !names.every((n) => typeof n === "string")) return "the others";
  return namesList(names);
}

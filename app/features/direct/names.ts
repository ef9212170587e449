/**
 * A group conversation's name, sealed inside its MLS group (docs/decisions/0050-conversation-words-and-call-ends.md):
 *   key    = MLS-Exporter("chatcrypt direct name", conversation id, 32) of epoch E
 *   sealed = "E." + base64url(AES-256-GCM(key, name, aad = "chatcrypt:direct-name:v1:<id>:<E>"))
 * The server keeps only `sealed`; every member's device in epoch E opens it, and a member's device
 * that knows the name seals it again for a later epoch (a device that joined later reads it then).
 */
import { decryptText, encryptText, importItemKey } from "~/crypto";
import { base64UrlEncode } from "~/crypto/bytes";

export const NAME_EXPORTER_LABEL = "chatcrypt direct name";
/** What the name may be (the picker's limit). */
export const MAX_NAME_CHARS = 100;

const aad = (conversationId: string, epoch: number) => `chatcrypt:direct-name:v1:${conversationId}:${epoch}`;
const keyOf = (secret: Uint8Array) => importItemKey(base64UrlEncode(secret));

export async function sealName(secret: Uint8Array, conversationId: string, epoch: number, name: string): Promise<string> {
  return `${epoch}.${await encryptText(await keyOf(secret), name, aad(conversationId, epoch))}`;
}

/** The epoch a sealed name is for, or null when it is not one. */
export function sealedEpoch(sealed: string): number | null {
  const match = /^(\d{1,10})\.[A-Za-z0-9_-]+$/.exec(sealed);
  return match ? Number(match[1]) : null;
}

/** The name, when `secret` is epoch `epoch`'s and the sealed name is for it; null otherwise (or altered). */
export async function openName(secret: Uint8Array, conversationId: string, epoch: number, sealed: string): Promise<string | null> {
  if (sealedEpoch(sealed) !== epoch) return null;
  try {
    const name = await decryptText(await keyOf(secret), sealed.slice(sealed.indexOf(".") + 1), aad(conversationId, epoch));
    return name.trim() && [...name].length <= MAX_NAME_CHARS ? name : null;
  } catch {
    return null;
  }
}

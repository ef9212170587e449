/**
 * One entry of the message archive (ADR 0048): a message's plaintext, AES-GCM under the user's vault key
 * "archive", bound to the user, conversation and message as associated data, in base64url. Pure: the key
 * is given (archive.client.ts derives it).
 */
import { decryptBytes, encryptBytes } from "~/crypto";
import { base64UrlDecode, base64UrlEncode, utf8Decode, utf8Encode } from "~/crypto/bytes";

const aad = (userId: string, channelId: string, messageId: string) => `chatcrypt:archive:v1:${userId}:${channelId}:${messageId}`;

export async function sealEntry(key: CryptoKey, userId: string, channelId: string, messageId: string, plaintext: string): Promise<string> {
  return base64UrlEncode(await encryptBytes(key, utf8Encode(plaintext), aad(userId, channelId, messageId)));
}

/** Opens what sealEntry produced; throws when it was altered, sealed under another key or bound to another user, conversation or message. */
export async function openEntry(key: CryptoKey, userId: string, channelId: string, messageId: string, data: string): Promise<string> {
  return utf8Decode(await decryptBytes(key, base64UrlDecode(data), aad(userId, channelId, messageId)));
}

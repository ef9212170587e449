/**
 * What this device read in its sealed channels. An MLS message can be decrypted once only (its key is
 * deleted after use, which is forward secrecy), so the page keeps each message it read, and each one it
 * sent, to show the channel again later: one IndexedDB row per message, AES-GCM under the user's vault
 * key of purpose "sealed", bound to the user, channel and message as associated data.
 */
import { decryptBytes, encryptBytes } from "~/crypto";
import { utf8Decode, utf8Encode } from "~/crypto/bytes";
import { vaultKey } from "~/conversation/keyring/vault.client";
import { runInStore, type UserRow } from "~/lib/idb.client";

const DB_NAME = "chatcrypt_sealed";
const STORE = "read";

interface Row extends UserRow {
  messageId: string;
  sealed: Uint8Array;
}

const prefix = (userId: string, channelId: string) => `${userId}:${channelId}:`;
const aad = (userId: string, channelId: string, messageId: string) => `chatcrypt:sealed-read:v1:${userId}:${channelId}:${messageId}`;

/** Every message of the channel this device read or sent, by id; rows that do not open are left out. */
export async function loadRead(userId: string, channelId: string): Promise<Map<string, string>> {
  const start = prefix(userId, channelId);
  const rows = await runInStore<Row[]>(
    DB_NAME,
    STORE,
    "readonly",
    (store) => store.getAll(IDBKeyRange.bound(start, `${start}\uffff`)) as IDBRequest<Row[]>,
  );
  const key = await vaultKey(userId, "sealed");
  const out = new Map<string, string>();
  for (const row of rows) {
    try {
      out.set(row.messageId, utf8Decode(await decryptBytes(key, row.sealed, aad(userId, channelId, row.messageId))));
    } catch {
      // altered or another account's: not shown
    }
  }
  return out;
}

export const saveRead = (userId: string, channelId: string, messageId: string, plaintext: string) =>
  saveReadMany(userId, channelId, new Map([[messageId, plaintext]]));

/** Keeps many messages at once (those restored from the archive), in one transaction. */
export async function saveReadMany(userId: string, channelId: string, messages: ReadonlyMap<string, string>): Promise<void> {
  if (messages.size === 0) return;
  const key = await vaultKey(userId, "sealed");
  const rows = await Promise.all(
    [...messages].map(async ([messageId, plaintext]): Promise<Row> => ({
      key: `${prefix(userId, channelId)}${messageId}`,
      userId,
      messageId,
      sealed: await encryptBytes(key, utf8Encode(plaintext), aad(userId, channelId, messageId)),
    })),
  );
  await runInStore(DB_NAME, STORE, "readwrite", (store) => rows.map((row) => store.put(row)).at(-1)!);
}

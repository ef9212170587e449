/**
 * The outbox on this device: every message from the moment it is sent until the server has it, so a
 * closed tab, a browser restart or a crash loses nothing. One IndexedDB row per message, AES-GCM under
 * the user's vault key of purpose "outbox", bound to the user, conversation and client id. The rows
 * stay through sign-out (sealed; the key needs the user's identity key, which leaves the device) and
 * are sent, once (their client id), when the same user signs in here again.
 */
import { decryptBytes, encryptBytes } from "~/crypto";
import { utf8Decode, utf8Encode } from "~/crypto/bytes";
import { vaultKey } from "~/conversation/keyring/vault.client";
import { runInStore, type UserRow } from "~/lib/idb.client";

const DB_NAME = "chatcrypt_outbox";
const STORE = "pending";

interface Row extends UserRow {
  clientId: string;
  channelId: string;
  at: number;
  sealed: Uint8Array;
}

/** A message waiting on this device, as written. */
export interface KeptMessage {
  clientId: string;
  channelId: string;
  text: string;
  replyTo?: string;
}

const aad = (userId: string, channelId: string, clientId: string) => `chatcrypt:outbox:v1:${userId}:${channelId}:${clientId}`;
const rowKey = (userId: string, clientId: string) => `${userId}:${clientId}`;
const run = <T>(mode: IDBTransactionMode, work: (store: IDBObjectStore) => IDBRequest<T>) => runInStore(DB_NAME, STORE, mode, work);

export async function keepMessage(userId: string, message: KeptMessage): Promise<void> {
  const body = utf8Encode(JSON.stringify({ text: message.text, replyTo: message.replyTo }));
  const sealed = await encryptBytes(await vaultKey(userId, "outbox"), body, aad(userId, message.channelId, message.clientId));
  const row: Row = {
    key: rowKey(userId, message.clientId),
    userId,
    clientId: message.clientId,
    channelId: message.channelId,
    at: Date.now(),
    sealed,
  };
  await run("readwrite", (store) => store.put(row));
}

export async function dropMessage(userId: string, clientId: string): Promise<void> {
  await run("readwrite", (store) => store.delete(rowKey(userId, clientId)));
}

/** The user's waiting messages, oldest first; rows that do not open (altered, another account's) are left out. */
export async function keptMessages(userId: string): Promise<KeptMessage[]> {
  const rows = await run<Row[]>("readonly", (store) => store.index("userId").getAll(userId) as IDBRequest<Row[]>);
  const key = await vaultKey(userId, "outbox");
  const out: KeptMessage[] = [];
  for (const row of rows.sort((a, b) => a.at - b.at)) {
    try {
      const body = JSON.parse(utf8Decode(await decryptBytes(key, row.sealed, aad(userId, row.channelId, row.clientId)))) as KeptMessage;
      if (typeof body.text !== "string") continue;
      out.push({
        clientId: row.clientId,
        channelId: row.channelId,
        text: body.text,
        ...(typeof body.replyTo === "string" ? { replyTo: body.replyTo } : {}),
      });
    } catch {
      // not this account's, or altered: never sent
    }
  }
  return out;
}

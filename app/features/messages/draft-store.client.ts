/**
 * Drafts kept on this device (ADR 0096): one IndexedDB row per conversation or thread whose text was
 * typed and not sent, AES-GCM under the user's vault key of purpose "drafts", bound to the user and the
 * draft's key. The server never sees them; sign-out deletes the user's rows.
 */
import { decryptBytes, encryptBytes } from "~/crypto";
import { utf8Decode, utf8Encode } from "~/crypto/bytes";
import { vaultKey } from "~/conversation/keyring/vault.client";
import { runInStore, type UserRow } from "~/lib/idb.client";

const DB_NAME = "chatcrypt_drafts";
const STORE = "drafts";

interface Row extends UserRow {
  draftKey: string;
  sealed: Uint8Array;
}

const aad = (userId: string, draftKey: string) => `chatcrypt:draft:v1:${userId}:${draftKey}`;
const rowKey = (userId: string, draftKey: string) => `${userId}:${draftKey}`;
const run = <T>(mode: IDBTransactionMode, work: (store: IDBObjectStore) => IDBRequest<T>) => runInStore(DB_NAME, STORE, mode, work);

/**
 * Saves a draft's text; an empty one deletes its row, but only while the row holds `was` (what this
 * page last saved or read there): another tab's draft of the same conversation is not this page's to
 * delete.
 */
export async function saveDraft(userId: string, draftKey: string, text: string, was?: string): Promise<void> {
  if (!text) {
    if (was === undefined) return;
    const row = await run<Row | undefined>("readonly", (store) => store.get(rowKey(userId, draftKey)) as IDBRequest<Row | undefined>);
    if (row && (await openRow(userId, row)) === was) await run("readwrite", (store) => store.delete(rowKey(userId, draftKey)));
    return;
  }
  const sealed = await encryptBytes(await vaultKey(userId, "drafts"), utf8Encode(text), aad(userId, draftKey));
  const row: Row = { key: rowKey(userId, draftKey), userId, draftKey, sealed };
  await run("readwrite", (store) => store.put(row));
}

/** The user's saved drafts by key; rows that do not open (altered, another account's) are left out. */
export async function savedDrafts(userId: string): Promise<Map<string, string>> {
  const rows = await run<Row[]>("readonly", (store) => store.index("userId").getAll(userId) as IDBRequest<Row[]>);
  const found = new Map<string, string>();
  for (const row of rows) {
    const text = await openRow(userId, row);
    if (text !== null) found.set(row.draftKey, text);
  }
  return found;
}

/** A row's text; null when it does not open (another account's, or altered: never shown). */
async function openRow(userId: string, row: Row): Promise<string | null> {
  try {
    return utf8Decode(await decryptBytes(await vaultKey(userId, "drafts"), row.sealed, aad(userId, row.draftKey)));
  } catch {
    return null;
  }
}

/** Deletes every draft of the user on this device (sign-out). */
export async function dropDrafts(userId: string): Promise<void> {
  const keys = await run<IDBValidKey[]>("readonly", (store) => store.index("userId").getAllKeys(userId));
  for (const key of keys) await run("readwrite", (store) => store.delete(key));
}

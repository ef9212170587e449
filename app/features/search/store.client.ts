import { decryptBytes, encryptBytes } from "~/crypto";
import { vaultKey } from "~/conversation/keyring/vault.client";
import { deleteDatabase, runInStore, type UserRow } from "~/lib/idb.client";

/**
 * The index on disk (ADR 0014): one IndexedDB record per user and channel, AES-GCM under the user's
 * "search" vault key (its own HKDF label), bound to the user and channel as associated data. A copied
 * browser profile holds ciphertext only.
 */
const DB_NAME = "chatcrypt_search";
const STORE = "chunks";

interface Row extends UserRow {
  channelId: string;
  sealed: Uint8Array;
}

const run = <T>(mode: IDBTransactionMode, work: (store: IDBObjectStore) => IDBRequest<T>) => runInStore(DB_NAME, STORE, mode, work);

/** Set by sign-out: a save still under way from the closing workspace must not bring the database back. */
let signedOut = false;

const aad = (userId: string, channelId: string) => `chatcrypt:search:v1:${userId}:${channelId}`;
const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** Every chunk of the user's index, decrypted; chunks that do not open (another key, altered) are left out. */
export async function loadChunks(userId: string): Promise<Map<string, string>> {
  signedOut = false;
  const rows = await run<Row[]>("readonly", (store) => store.index("userId").getAll(userId) as IDBRequest<Row[]>);
  const key = await vaultKey(userId, "search");
  const out = new Map<string, string>();
  for (const row of rows) {
    try {
      out.set(row.channelId, decoder.decode(await decryptBytes(key, row.sealed, aad(userId, row.channelId))));
    } catch {
      // unreadable: that channel is indexed again
    }
  }
  return out;
}

/** Saves one channel's chunk (null removes it). */
export async function saveChunk(userId: string, channelId: string, json: string | null) {
  if (signedOut) return;
  const key = `${userId}:${channelId}`;
  if (json === null) return void (await run("readwrite", (store) => store.delete(key)));
  const sealed = await encryptBytes(await vaultKey(userId, "search"), encoder.encode(json), aad(userId, channelId));
  await run("readwrite", (store) => store.put({ key, userId, channelId, sealed } satisfies Row));
}

/** Sign-out: the whole index of this browser goes. */
export function deleteSearchIndex(): Promise<void> {
  signedOut = true;
  return deleteDatabase(DB_NAME);
}

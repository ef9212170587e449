/**
 * The keys this device keeps for its service worker to open pushed messages (app/features/push/
 * push-worker.ts): for the signed-in user, each classic channel's key and each sender's verifying
 * key, as WebCrypto keys the page could already use (non-extractable copies where the page's are
 * extractable), in IndexedDB. Kept only while this device has notifications on for a signed-in user;
 * deleted when they are turned off and at sign-out, so a push after that opens nothing.
 * Used by both the page and the worker: IndexedDB only, nothing of the page's storage.
 */
import { runInStore } from "~/lib/idb.client";
import { PUSH_DB } from "~/features/push/push-db";

const STORE = "keys";

export interface PushKeys {
  key: string;
  userId: string;
  channels: Record<string, CryptoKey>;
  verify: Record<string, CryptoKey>;
}

/** The keys kept for the signed-in user, or null (a database that does not exist is not made by asking). */
export function readPushKeys(): Promise<PushKeys | null> {
  return new Promise((resolve) => {
    const request = indexedDB.open(PUSH_DB);
    request.onupgradeneeded = () => request.transaction?.abort();
    request.onerror = request.onblocked = () => resolve(null);
    request.onsuccess = () => {
      const db = request.result;
      try {
        const rows = db.transaction(STORE, "readonly").objectStore(STORE).getAll() as IDBRequest<PushKeys[]>;
        rows.onsuccess = () => {
          db.close();
          resolve(rows.result[0] ?? null);
        };
        rows.onerror = () => {
          db.close();
          resolve(null);
        };
      } catch {
        db.close();
        resolve(null);
      }
    };
  });
}

/** Replaces what is kept (one user per browser: the one signed in). */
export async function writePushKeys(keys: Omit<PushKeys, "key">): Promise<void> {
  await runInStore(PUSH_DB, STORE, "readwrite", (store) => {
    store.clear();
    return store.put({ ...keys, key: keys.userId });
  });
}

/**
 * One IndexedDB object store of rows keyed by `key` and indexed by `userId`, opened per call (closed
 * when the transaction ends, so a deleted database is never held open). Used by the search index and
 * by sealed channels' read messages, both sealed under a vault key before they get here.
 */
export interface UserRow {
  key: string;
  userId: string;
}

function open(dbName: string, storeName: string): Promise<IDBDatabase> {
  return new Promise((resolve, reject) => {
    const request = indexedDB.open(dbName, 1);
    request.onupgradeneeded = () => request.result.createObjectStore(storeName, { keyPath: "key" }).createIndex("userId", "userId");
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
}

/** Runs one request in its own transaction and answers its result once the transaction completed. */
export function runInStore<T>(
  dbName: string,
  storeName: string,
  mode: IDBTransactionMode,
  work: (store: IDBObjectStore) => IDBRequest<T>,
): Promise<T> {
  return open(dbName, storeName).then(
    (db) =>
      new Promise<T>((resolve, reject) => {
        const tx = db.transaction(storeName, mode);
        const request = work(tx.objectStore(storeName));
        tx.oncomplete = () => {
          db.close();
          resolve(request.result);
        };
        tx.onerror = tx.onabort = () => {
          db.close();
          reject(tx.error);
        };
      }),
  );
}

/** Deletes a whole database; resolves whatever happens (nothing to delete, blocked). */
export function deleteDatabase(dbName: string): Promise<void> {
  return new Promise((resolve) => {
    const request = indexedDB.deleteDatabase(dbName);
    request.onsuccess = request.onerror = request.onblocked = () => resolve();
  });
}

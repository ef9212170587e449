import type { Page } from "@playwright/test";

/** Everything a page's origin keeps: local and session storage, and every record of every IndexedDB store, bytes decoded. */
export const browserStorage = (page: Page) =>
  page.evaluate(async () => {
    const parts = [JSON.stringify(Object.entries(localStorage)), JSON.stringify(Object.entries(sessionStorage))];
    const text = (value: unknown): string =>
      value instanceof Uint8Array || value instanceof ArrayBuffer
        ? new TextDecoder().decode(value)
        : value && typeof value === "object"
          ? Object.values(value).map(text).join(" ")
          : String(value);
    for (const { name } of await indexedDB.databases()) {
      parts.push(`database ${name}`);
      const db = await new Promise<IDBDatabase>((resolve, reject) => {
        const open = indexedDB.open(name!);
        open.onsuccess = () => resolve(open.result);
        open.onerror = () => reject(open.error);
      });
      for (const store of db.objectStoreNames) {
        const rows = await new Promise<unknown[]>((resolve) => {
          const all = db.transaction(store).objectStore(store).getAll();
          all.onsuccess = () => resolve(all.result);
        });
        parts.push(rows.map(text).join(" "));
      }
      db.close();
    }
    return parts.join("\n");
  });

/** The rows of an IndexedDB store of the page's origin, each as JSON (bytes as numbers; none when the database is not there). */
export const rowsIn = (page: Page, database: string, store: string) =>
  page.evaluate(
    async ([name, storeName]) => {
      if (!(await indexedDB.databases()).some((d) => d.name === name)) return [];
      const db = await new Promise<IDBDatabase>((resolve, reject) => {
        const open = indexedDB.open(name);
        open.onsuccess = () => resolve(open.result);
        open.onerror = () => reject(open.error);
      });
      const rows = await new Promise<unknown[]>((resolve) => {
        const all = db.transaction(storeName).objectStore(storeName).getAll();
        all.onsuccess = () => resolve(all.result);
      });
      db.close();
      return rows.map((row) => JSON.stringify(row, (_, value: unknown) => (value instanceof Uint8Array ? [...value] : value)));
    },
    [database, store] as const,
  );

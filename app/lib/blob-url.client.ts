import { ChatError } from "~/lib/errors";

// Decrypted files and images are fetched once and kept as object URLs for the page's life.
const objectUrls = new Map<string, Promise<string>>();

/** The object URL of what `load` produces, made once per cache key; a failure is forgotten so it can be retried. */
export function cachedObjectUrl(cacheKey: string, load: () => Promise<Blob>): Promise<string> {
  let url = objectUrls.get(cacheKey);
  if (!url) {
    url = load().then((blob) => URL.createObjectURL(blob));
    objectUrls.set(cacheKey, url);
    url.catch(() => objectUrls.delete(cacheKey));
  }
  return url;
}

/** The bytes behind one of our own download routes. */
export async function fetchBytes(path: string): Promise<Uint8Array> {
  const response = await fetch(path, { credentials: "same-origin" });
  if (!response.ok) throw new ChatError("The file could not be downloaded.");
  return new Uint8Array(await response.arrayBuffer());
}

/** A Blob of decrypted bytes. */
export const bytesBlob = (bytes: Uint8Array, type: string) => new Blob([bytes as Uint8Array<ArrayBuffer>], { type });

import { importKeyBundle, type KeyBundle } from "~/crypto";
import { loadLocalKeys } from "~/lib/storage.client";

let cached: { userId: string; raw: string; bundle: Promise<KeyBundle> } | null = null;

/** This device's key bundle for the user, imported once per page; null when the device has none. */
export async function deviceKeys(userId: string): Promise<KeyBundle | null> {
  const stored = loadLocalKeys(userId);
  if (!stored) return null;
  const raw = JSON.stringify(stored);
  if (!cached || cached.userId !== userId || cached.raw !== raw) {
    cached = { userId, raw, bundle: importKeyBundle(stored) };
  }
  try {
    return await cached.bundle;
  } catch {
    cached = null;
    return null;
  }
}

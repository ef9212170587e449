/**
 * When the user last saw each thread (the latest reply shown in its panel), on this device: the
 * Threads view lists threads with replies after that. Kept in local storage as thread id -> time;
 * thread ids are the server's record ids, no content.
 */
import { emit, on } from "~/lib/events";

const KEY = "chatcrypt_threads_seen";

/** Called when a thread was seen, or another thread had new replies (the Threads view reads again). */
export const onThreadsChanged = (listener: () => void) => on("threads:changed", listener);

export const threadsChanged = () => emit("threads:changed");
const MAX = 500;

function read(): Record<string, string> {
  try {
    const value = JSON.parse(localStorage.getItem(KEY) ?? "{}") as unknown;
    return value && typeof value === "object" ? (value as Record<string, string>) : {};
  } catch {
    return {};
  }
}

export const threadSeenAt = (rootId: string): string => read()[rootId] ?? "";

export function markThreadSeen(rootId: string, latest: string) {
  const seen = read();
  if (!latest || (seen[rootId] ?? "") >= latest) return;
  seen[rootId] = latest;
  const entries = Object.entries(seen)
    .sort((a, b) => (a[1] < b[1] ? 1 : -1))
    .slice(0, MAX);
  localStorage.setItem(KEY, JSON.stringify(Object.fromEntries(entries)));
  threadsChanged();
}

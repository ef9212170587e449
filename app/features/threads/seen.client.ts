/**
 * When the user last saw each thread (the latest reply shown in its panel): the Threads view lists
 * threads with replies after that. Kept in local storage as thread id -> time, and on the server for
 * the user's other devices (thread_reads, ADR 0097: a message id and a time, no content); the later
 * of the two counts.
 */
import { api } from "~/lib/api.client";
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

function write(seen: Record<string, string>) {
  const entries = Object.entries(seen)
    .sort((a, b) => (a[1] < b[1] ? 1 : -1))
    .slice(0, MAX);
  localStorage.setItem(KEY, JSON.stringify(Object.fromEntries(entries)));
}

/** The thread was seen here up to the reply of `latest`: kept, and told to the user's other devices. */
export function markThreadSeen(rootId: string, latest: string) {
  const seen = read();
  if (!latest || (seen[rootId] ?? "") >= latest) return;
  seen[rootId] = latest;
  write(seen);
  threadsChanged();
  api(`/api/threads/${rootId}/seen`, { at: latest }).catch((error: unknown) =>
    console.warn("The thread could not be marked as seen", error),
  );
}

/** What the user's devices saw, as the server keeps it: taken where it is later than this device's. */
export function seenElsewhere(server: Readonly<Record<string, string>>) {
  const seen = read();
  let changed = false;
  for (const [root, at] of Object.entries(server))
    if (typeof at === "string" && at > (seen[root] ?? "")) {
      seen[root] = at;
      changed = true;
    }
  if (changed) write(seen);
}

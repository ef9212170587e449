// Uploads in flight in this web process (ADR 66). Each streams through without being held, but the
// pieces it passes through are garbage until the next collection, so the memory an upload costs
// grows with how many run at once: one account has at most UPLOADS_PER_ACCOUNT at once and the
// process UPLOADS_PER_PROCESS; the rest are answered 429 and the page sends them again
// (app/lib/upload.client.ts) once it has waited.
import { fail } from "~/server/http.server";

export const UPLOADS_PER_ACCOUNT = 1;
export const UPLOADS_PER_PROCESS = 4;
export const ANOTHER_UPLOAD_MESSAGE = "Another upload is in progress; it will start when that one finishes";
export const SERVER_BUSY_MESSAGE = "The server is busy with other uploads; yours will start in a moment.";

const byAccount = new Map<string, number>();
let total = 0;

/** Takes one upload slot for the account (or throws the 429); the answer gives it back (once). */
export function takeUploadSlot(userId: string): () => void {
  const mine = byAccount.get(userId) ?? 0;
  if (mine >= UPLOADS_PER_ACCOUNT) fail(429, ANOTHER_UPLOAD_MESSAGE);
  if (total >= UPLOADS_PER_PROCESS) fail(429, SERVER_BUSY_MESSAGE);
  byAccount.set(userId, mine + 1);
  total += 1;
  let released = false;
  return () => {
    if (released) return;
    released = true;
    total -= 1;
    const left = (byAccount.get(userId) ?? 1) - 1;
    if (left > 0) byAccount.set(userId, left);
    else byAccount.delete(userId);
  };
}

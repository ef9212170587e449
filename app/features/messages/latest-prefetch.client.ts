/**
 * A conversation's latest page asked for as soon as the user presses its button (pointer down, Enter or
 * Space), so that the request is on its way while the click lands and the conversation renders. Taken
 * once, by that conversation's history; one kept at a time, for a few seconds.
 */
import { fetchMessages } from "~/features/messages/messages.client";

export const LATEST_PAGE_SIZE = 200;
const FRESH_MS = 5_000;

let kept: { channelId: string; at: number; page: ReturnType<typeof fetchMessages> } | null = null;

export function prefetchLatest(channelId: string) {
  if (kept?.channelId === channelId && performance.now() - kept.at < FRESH_MS) return;
  const page = fetchMessages(channelId, { limit: LATEST_PAGE_SIZE, profiles: true });
  const entry = { channelId, at: performance.now(), page };
  kept = entry;
  page.catch(() => {
    if (kept === entry) kept = null;
  });
}

/**
 * The latest page asked for ahead, if it is this conversation's and fresh. What was sent after it comes
 * with the catch-up of the conversation's live stream, which starts when the conversation opens.
 */
export function takeLatest(channelId: string) {
  const entry = kept;
  kept = null;
  if (!entry || entry.channelId !== channelId || performance.now() - entry.at >= FRESH_MS) return null;
  return entry.page;
}

/** Handlers for a conversation's button: its latest page is asked for on press (pointer, Enter or Space), ahead of the click. */
export function openIntent(channelId: string, active: boolean) {
  if (active) return {};
  const now = () => prefetchLatest(channelId);
  return { onPointerDown: now, onKeyDown: (e: { key: string }) => (e.key === "Enter" || e.key === " " ? now() : undefined) };
}

/**
 * A conversation's first page, shown in two steps (ADR 41): the newest messages first, verified,
 * decrypted and drawn on their own, then the rest of the page above them. Nothing else waits for the
 * second step's work (a page of 200 costs about four times what is in view).
 */
import { compareMessages, type Ordered } from "~/features/messages/merge";

/** How many of the newest messages go first: as many as a conversation's first frame mounts (MessageList). */
export const SHOWN_FIRST = 40;

/**
 * The page's newest `count` messages with every edit, reaction or pin created since the oldest of them
 * (those of these messages are never older than they are), and the rest. Null when the page holds no
 * more messages than that.
 */
export function newestFirst<T extends Ordered & { kind?: string }>(
  records: readonly T[],
  count = SHOWN_FIRST,
): { head: T[]; rest: T[] } | null {
  const flow = records.filter((r) => !r.kind).sort(compareMessages);
  if (flow.length <= count) return null;
  const cutoff = flow[flow.length - count];
  const first = (r: T) => (r.kind ? r.created >= cutoff.created : compareMessages(r, cutoff) >= 0);
  return { head: records.filter(first), rest: records.filter((r) => !first(r)) };
}

/** Resolves after the next frame is drawn (what comes next does not delay it). */
export const afterNextFrame = () =>
  new Promise<void>((resolve) =>
    typeof requestAnimationFrame === "function" ? requestAnimationFrame(() => setTimeout(resolve)) : setTimeout(resolve),
  );

/**
 * A conversation's first page, shown in two steps (ADR 41): the newest messages first, verified,
 * decrypted and drawn on their own, then the rest of the page above them. Nothing else waits for the
 * second step's work (a page of 200 costs about four times what is in view).
 */
import { compareMessages, type Ordered } from "~/conversation/messages/merge";

/** The least height of a message row (one line, under the one before it from the same sender). */
const ROW_MIN_PX = 30;

/**
 * How many messages go first: as many as the window's height could show (at most 40), which is also
 * what a conversation's first frame mounts (MessageList).
 */
export const shownFirst = () =>
  typeof window === "undefined" ? 40 : Math.min(40, Math.max(10, Math.ceil(window.innerHeight / ROW_MIN_PX)));

/**
 * The page's newest `count` messages (or, with `around`, the `count` around that one), with every edit,
 * reaction or pin created since the oldest of them (those of these messages are never older than they
 * are), and the rest. Null when the page holds no more messages than that, or not the one asked for.
 */
export function newestFirst<T extends Ordered & { kind?: string }>(
  records: readonly T[],
  count = shownFirst(),
  around?: string,
): { head: T[]; rest: T[]; older: boolean; newer: boolean } | null {
  const flow = records.filter((r) => !r.kind).sort(compareMessages);
  if (flow.length <= count) return null;
  const at = around === undefined ? flow.length - 1 : flow.findIndex((m) => m.id === around);
  if (at < 0) return null;
  const from = Math.max(0, Math.min(at - Math.floor(count / 2), flow.length - count));
  const [oldest, newest] = [flow[from], flow[from + count - 1]];
  const first = (r: T) => (r.kind ? r.created >= oldest.created : compareMessages(r, oldest) >= 0 && compareMessages(r, newest) <= 0);
  return {
    head: records.filter(first),
    rest: records.filter((r) => !first(r)),
    // whether the rest holds messages older, or newer, than those first
    older: from > 0,
    newer: from + count < flow.length,
  };
}

/** Resolves after the next frame is drawn (what comes next does not delay it). */
export const afterNextFrame = () =>
  new Promise<void>((resolve) =>
    typeof requestAnimationFrame === "function" ? requestAnimationFrame(() => setTimeout(resolve)) : setTimeout(resolve),
  );

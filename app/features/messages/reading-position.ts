// Where a reader who scrolled up was in each channel (kept for this page's life), so that coming back
// to a channel shows the same message at the same height rather than the bottom.
export interface ReadingPosition {
  /** The first message at least partly in view, and how far the list's top is below its top. */
  messageId: string;
  offset: number;
}

const positions = new Map<string, ReadingPosition>();

export const savedPosition = (channelId: string) => positions.get(channelId);

export function forgetPosition(channelId: string) {
  positions.delete(channelId);
}

/** Records where the reader is in a channel (`positionIn` its list). */
export function savePosition(channelId: string, position: ReadingPosition) {
  positions.set(channelId, position);
}

/** The first message in view of `list` (message elements have the id `message-<id>`). */
export function positionIn(list: HTMLElement): ReadingPosition | undefined {
  const top = list.getBoundingClientRect().top;
  for (const element of list.querySelectorAll<HTMLElement>('[id^="message-"]')) {
    const box = element.getBoundingClientRect();
    if (box.bottom > top) return { messageId: element.id.slice("message-".length), offset: top - box.top };
  }
}

/**
 * Scrolls `list` back to a saved position; false when its message is not in the list. `offsetOf` tells
 * where a message not on the page would be (a long list mounts only the rows in view).
 */
export function restorePosition(
  list: HTMLElement,
  position: ReadingPosition,
  offsetOf?: (messageId: string) => number | undefined,
): boolean {
  const top = offsetOf?.(position.messageId);
  if (top !== undefined) {
    list.scrollTop = top + position.offset;
    settle(list, position, () => (list.scrollTop = (offsetOf?.(position.messageId) ?? top) + position.offset));
    return true;
  }
  const element = list.querySelector<HTMLElement>(`#${CSS.escape(`message-${position.messageId}`)}`);
  if (!element) return false;
  list.scrollTop += element.getBoundingClientRect().top - list.getBoundingClientRect().top + position.offset;
  return true;
}

/** A place put back is watched for this many frames at most; it is settled once in place on two frames in a row. */
const SETTLE_MAX_FRAMES = 60;
const SETTLED_FRAMES = 2;
const READER_INPUT = ["wheel", "touchstart", "pointerdown", "keydown"] as const;
/** The place being settled in each list: stopped by the reader's own scrolling, or by another place put back. */
const settling = new WeakMap<HTMLElement, () => void>();

/**
 * Where rows are mounted only in view, the message's place is an estimate until the rows around it are
 * measured: over the next frames, the message is put back exactly once it is on the page, by its
 * estimate while it is not, until it stays in place (however long the rows take to come under load), or
 * until the reader scrolls herself.
 */
function settle(list: HTMLElement, position: ReadingPosition, byEstimate: () => void) {
  settling.get(list)?.(); // (a place put back since replaces the one before)
  let frames = 0;
  let still = 0;
  let stopped = false;
  const stop = () => {
    stopped = true;
    settling.delete(list);
    for (const type of READER_INPUT) list.removeEventListener(type, stop);
  };
  settling.set(list, stop);
  for (const type of READER_INPUT) list.addEventListener(type, stop, { passive: true });
  const again = () => {
    if (stopped) return;
    const element = list.querySelector<HTMLElement>(`#${CSS.escape(`message-${position.messageId}`)}`);
    const off = element ? element.getBoundingClientRect().top - list.getBoundingClientRect().top + position.offset : undefined;
    if (off === undefined) byEstimate();
    else if (Math.abs(off) >= 1) list.scrollTop += off;
    still = off !== undefined && Math.abs(off) < 1 ? still + 1 : 0;
    if (still >= SETTLED_FRAMES || ++frames >= SETTLE_MAX_FRAMES) return stop();
    requestAnimationFrame(again);
  };
  requestAnimationFrame(again);
}

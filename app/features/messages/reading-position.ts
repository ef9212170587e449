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

/** Records the first message in view of `list` (message elements have the id `message-<id>`). */
export function savePosition(channelId: string, list: HTMLElement) {
  const top = list.getBoundingClientRect().top;
  for (const element of list.querySelectorAll<HTMLElement>('[id^="message-"]')) {
    const box = element.getBoundingClientRect();
    if (box.bottom > top) {
      positions.set(channelId, { messageId: element.id.slice("message-".length), offset: top - box.top });
      return;
    }
  }
}

/** Scrolls `list` back to a saved position; false when its message is not in the list. */
export function restorePosition(list: HTMLElement, position: ReadingPosition): boolean {
  const element = list.querySelector<HTMLElement>(`#${CSS.escape(`message-${position.messageId}`)}`);
  if (!element) return false;
  list.scrollTop += element.getBoundingClientRect().top - list.getBoundingClientRect().top + position.offset;
  return true;
}

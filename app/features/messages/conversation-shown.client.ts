/**
 * Whether a conversation is loading its first page. Work in the background that competes with it for
 * the network and the processor (the unread mentions' scan) waits until that page is shown.
 */
let opening = false;
const waiting = new Set<() => void>();

export function conversationOpening(isOpening: boolean) {
  opening = isOpening;
  if (opening) return;
  for (const resume of [...waiting]) resume();
  waiting.clear();
}

/** Resolves once no conversation is loading its first page, or after `maxMs` at most. */
export function afterConversationShown(maxMs = 3_000): Promise<void> {
  if (!opening) return Promise.resolve();
  return new Promise((resolve) => {
    const resume = () => {
      clearTimeout(timer);
      waiting.delete(resume);
      resolve();
    };
    const timer = setTimeout(resume, maxMs);
    waiting.add(resume);
  });
}

/**
 * Whether a conversation is loading its first page. Work in the background that competes with it for
 * the network and the processor (the unread mentions' scan) waits until that page is shown and drawn.
 */
import { afterNextFrame } from "~/features/messages/first-page";
import { emit, on } from "~/lib/events";

let opening = false;

export function conversationOpening(isOpening: boolean) {
  opening = isOpening;
  if (opening) return;
  // (once the frame that shows the page is drawn: its first render goes first too)
  const resumeAll = () => {
    if (opening) return;
    emit("conversation:shown");
  };
  void afterNextFrame().then(resumeAll);
}

/** Resolves once no conversation is loading its first page, or after `maxMs` at most. */
export function afterConversationShown(maxMs = 3_000): Promise<void> {
  if (!opening) return Promise.resolve();
  return new Promise((resolve) => {
    const resume = () => {
      clearTimeout(timer);
      stop();
      resolve();
    };
    const timer = setTimeout(resume, maxMs);
    const stop = on("conversation:shown", resume);
  });
}

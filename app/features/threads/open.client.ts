/** "Open this thread" from outside the conversation (the Threads view): kept until that conversation's pane takes it. */
import { emit, on } from "~/lib/events";

let pending: { channelId: string; root: string } | null = null;

export function requestThreadOpen(channelId: string, root: string) {
  pending = { channelId, root };
  emit("thread:open-requested");
}

/** The thread to open in this conversation, if one was asked for (taken once). */
export function takeThreadRequest(channelId: string): string | null {
  if (pending?.channelId !== channelId) return null;
  const { root } = pending;
  pending = null;
  return root;
}

export const onThreadRequest = (listener: () => void) => on("thread:open-requested", listener);

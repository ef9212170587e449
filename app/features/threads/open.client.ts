/** "Open this thread" from outside the conversation (the Threads view): kept until that conversation's pane takes it. */
let pending: { channelId: string; root: string } | null = null;
const listeners = new Set<() => void>();

export function requestThreadOpen(channelId: string, root: string) {
  pending = { channelId, root };
  for (const listener of listeners) listener();
}

/** The thread to open in this conversation, if one was asked for (taken once). */
export function takeThreadRequest(channelId: string): string | null {
  if (pending?.channelId !== channelId) return null;
  const { root } = pending;
  pending = null;
  return root;
}

export function onThreadRequest(listener: () => void) {
  listeners.add(listener);
  return () => void listeners.delete(listener);
}

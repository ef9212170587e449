import { randomUuid } from "~/crypto";

/**
 * A page that closes with messages still on their way (kept in the outbox, not yet taken by the server:
 * a direct message still being encrypted, a send still waiting) hands them to another page of the same
 * browser and user that stays open, which sends them at once, in order, instead of when it is next
 * reloaded. The server stores a message once however often it is sent (its client id), so a send the
 * closing page did finish costs nothing. One page takes them (a lock); if its first try fails, another
 * may take the rows still kept, and each sends them once.
 */
const channelName = (userId: string) => `chatcrypt-outbox:${userId}`;
/** This page: its own leaving (a sign-out's reload) is not news to it. */
const PAGE = randomUuid();

/** On leaving, tells the other pages which of this page's messages are still on their way. */
export function handOverOnLeave(userId: string, onTheirWay: () => string[]): () => void {
  const onHide = () => {
    const left = onTheirWay();
    if (left.length === 0 || typeof BroadcastChannel === "undefined") return;
    const channel = new BroadcastChannel(channelName(userId));
    channel.postMessage({ left, from: PAGE });
    channel.close();
  };
  window.addEventListener("pagehide", onHide);
  return () => window.removeEventListener("pagehide", onHide);
}

/** Another page of this user left messages on their way: `adopt` sends them (one page at a time). */
export function onHandedOver(userId: string, adopt: (clientIds: string[]) => Promise<void>): () => void {
  if (typeof BroadcastChannel === "undefined") return () => {};
  const channel = new BroadcastChannel(channelName(userId));
  channel.onmessage = (event: MessageEvent<{ left?: unknown; from?: unknown }>) => {
    const left = event.data?.left;
    if (event.data?.from === PAGE) return;
    if (!Array.isArray(left) || !left.every((id): id is string => typeof id === "string")) return;
    if (!navigator.locks) return void adopt(left);
    void navigator.locks.request(`${channelName(userId)}:adopt`, (lock) => (lock ? adopt(left) : undefined));
  };
  return () => channel.close();
}

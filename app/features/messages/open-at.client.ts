/**
 * "Open this conversation at this message" (a search result, a message link), said before the
 * conversation is selected: its history then starts with the page around that message instead of the
 * latest page (one request instead of two). Taken once, by the history of that conversation only.
 */
let wanted: { channelId: string; messageId: string } | null = null;

/** What the page says when the message it was to open at is not there (deleted). */
export const MESSAGE_GONE = "This message is no longer there.";

export function requestOpenAt(channelId: string, messageId: string) {
  wanted = { channelId, messageId };
}

export function takeOpenAt(channelId: string): string | null {
  const at = peekOpenAt(channelId);
  wanted = null;
  return at;
}

/** The message this conversation is to open at, left for takeOpenAt. */
export const peekOpenAt = (channelId: string): string | null => (wanted?.channelId === channelId ? wanted.messageId : null);

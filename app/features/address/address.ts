/**
 * What the address names (ADR 0061): `/` (nothing open), `/c/<conversation>` (a channel, sealed channel
 * or direct conversation), `/c/<conversation>/t/<thread root>` (with that thread open) and
 * `/c/<conversation>/m/<message>` (opened at that message). A thread or message reference that cannot be
 * an id (a link cut short, mistyped) still opens the conversation, which says that thread or message is
 * not there (`isMessageId`). Ids are read in lower case, as they all are. Any other `/c/...` address
 * names a conversation nobody can read: the page says so, as for one the person is not in.
 */
export interface Place {
  /** The conversation named; "" for an address under /c/ that names none that can exist. */
  conversationId: string | null;
  thread: string | null;
  message: string | null;
}

export const HOME: Place = { conversationId: null, thread: null, message: null };
const NOWHERE: Place = { conversationId: "", thread: null, message: null };

/** A conversation's id (a channel's UUID, a direct conversation's id) and a message's id. */
const CONVERSATION = /^[A-Za-z0-9-]{1,64}$/;
const MESSAGE = /^[a-z0-9]{15}$/;

/** Whether an address's thread or message reference can name one (otherwise there is none to ask for). */
export const isMessageId = (ref: string) => MESSAGE.test(ref);

export function placeOf(pathname: string): Place {
  if (!pathname.startsWith("/c/")) return HOME;
  const parts = pathname.slice(3).split("/");
  let decoded: string[];
  try {
    decoded = parts.map((part) => decodeURIComponent(part));
  } catch {
    return NOWHERE;
  }
  // (every conversation's and message's id is in lower case: one typed or copied in capitals names it too)
  const [conversationId, kind, ref, ...rest] = decoded.map((part, i) => (i === 1 ? part : part.toLowerCase()));
  // (a trailing slash is no part: /c/<id>/t/<root>/ is the thread)
  if (!CONVERSATION.test(conversationId) || rest.length > 1 || (rest.length === 1 && rest[0] !== "")) return NOWHERE;
  const conversation = { conversationId, thread: null, message: null };
  if (kind === undefined || (kind === "" && ref === undefined)) return conversation;
  // a thread's or message's link cut short before its reference (/c/<id>/t, /c/<id>/m/) opens the conversation
  if (!ref && (kind === "t" || kind === "m")) return conversation;
  if (!ref) return NOWHERE;
  if (kind === "t") return { conversationId, thread: ref, message: null };
  if (kind === "m") return { conversationId, thread: null, message: ref };
  return NOWHERE;
}

export function pathOf(place: Place): string {
  if (!place.conversationId) return "/";
  const base = `/c/${encodeURIComponent(place.conversationId)}`;
  if (place.thread) return `${base}/t/${encodeURIComponent(place.thread)}`;
  if (place.message) return `${base}/m/${encodeURIComponent(place.message)}`;
  return base;
}

/** When an incoming message triggers a notification: mentions, keywords, the conversation's rules, and the text shown. */
import { wantsNotification, type NotifyRules } from "~/features/notify-rules/rules";

/** Keywords as saved: trimmed, blanks dropped, each once ignoring case (the first spelling kept). */
export function normalizeKeywords(list: string[]): string[] {
  const seen = new Set<string>();
  const keywords: string[] = [];
  for (const raw of list) {
    const keyword = raw.trim();
    const folded = keyword.toLowerCase();
    if (keyword === "" || seen.has(folded)) continue;
    seen.add(folded);
    keywords.push(keyword);
  }
  return keywords;
}

// Escapes a literal for a pattern compiled with the "u" flag, where only syntax characters may
// be escaped ("\-" is an error there).
function escapeForPattern(text: string): string {
  return text.replace(/[\\^$.*+?()[\]{}|/]/gu, "\\$&");
}

// A mention is "@name" not glued to a word, address or another mention before it, and not
// running on into a longer name after it: "@bob," "(@bob)" and a closing "@bob." count, while
// "@bobby", "x@bob", "@bob_x", "@bob.smith" and "email@bob.com" do not.
const BEFORE_MENTION = "(?<![\\p{L}\\p{N}\\p{M}_.@-])";
const AFTER_MENTION = "(?![\\p{L}\\p{N}\\p{M}_-]|\\.[\\p{L}\\p{N}\\p{M}_-])";

/**
 * The text without its Markdown code (fenced blocks, an unclosed one to the end, and inline code spans):
 * a name written there is shown as code, not as a mention (ADR 22), and does not notify either.
 */
const withoutCode = (text: string) => text.replace(/(`{3,}|~{3,})[\s\S]*?(?:\1|$)/gu, " ").replace(/(`+)[^`]*?\1/gu, " ");

/** Whether text mentions @username as a whole word, ignoring case, outside code. */
export function mentionsUser(text: string, username: string): boolean {
  const name = username.trim().replace(/^@/u, "");
  if (name === "" || text === "") return false;
  return new RegExp(`${BEFORE_MENTION}@${escapeForPattern(name)}${AFTER_MENTION}`, "iu").test(withoutCode(text));
}

/** The first keyword found anywhere in text, ignoring case, or null. */
export function matchedKeyword(text: string, keywords: string[]): string | null {
  const haystack = text.toLowerCase();
  for (const keyword of normalizeKeywords(keywords)) {
    if (haystack.includes(keyword.toLowerCase())) return keyword;
  }
  return null;
}

export interface NotifyCheck {
  text: string;
  /** The message was sent by the reader. */
  own: boolean;
  /** The reader's username, matched as @username (a mention always counts). */
  username: string;
  keywords: string[];
  /** In a direct conversation every message is for the reader: it notifies whatever the triggers. */
  direct?: boolean;
  /** A reply in a thread the reader takes part in is for them too. */
  participant?: boolean;
}

export interface NotifyDecision {
  notify: boolean;
  mention: boolean;
  keyword: string | null;
}

/**
 * Whether a decrypted incoming message is for its reader: own messages never are; a mention of
 * @username, a keyword, every message of a direct conversation and a reply in a thread the reader
 * takes part in are. What then notifies is the conversation's level (notify-rules/rules.ts): "All
 * messages" every message, "Mentions and keywords" (the default in channels) only these.
 */
export function shouldNotify(p: NotifyCheck): NotifyDecision {
  if (p.own) return { notify: false, mention: false, keyword: null };
  const mention = mentionsUser(p.text, p.username);
  const keyword = matchedKeyword(p.text, p.keywords);
  return { notify: Boolean(p.direct) || Boolean(p.participant) || mention || keyword !== null, mention, keyword };
}

/**
 * Whether a decrypted incoming message notifies its reader on this page, by their triggers and their
 * rules for its conversation (notify-rules/rules.ts): a mention, a keyword or a reply in a thread they
 * take part in counts as mentioned; "All messages" notifies every message of others, "Nothing", a
 * mute, a pause and the Do not disturb hours none. Own messages never do.
 */
export function notifiesByRules(
  rules: NotifyRules,
  conversation: { id: string; direct?: boolean },
  check: Omit<NotifyCheck, "direct">,
  now: Date,
): NotifyDecision {
  const decision = shouldNotify(check);
  if (check.own) return decision;
  const arrival = { conversationId: conversation.id, direct: Boolean(conversation.direct), mentioned: decision.notify };
  return { ...decision, notify: wantsNotification(rules, arrival, now) };
}

/** Whether the open conversation's chime plays (and a call in it rings): not when it is muted or set to "Nothing", nor while paused or in the Do not disturb hours. */
export const chimes = (rules: NotifyRules, conversationId: string, now: Date) =>
  wantsNotification(rules, { conversationId, direct: false, mentioned: true }, now);

export const NOTIFICATION_BODY_CHARS = 100;

/** The body of a desktop notification: the first 100 characters (code points, so emoji stay whole). */
export function notificationBody(text: string): string {
  const chars = Array.from(text);
  return chars.length <= NOTIFICATION_BODY_CHARS ? text : chars.slice(0, NOTIFICATION_BODY_CHARS).join("");
}

export type PermissionState = "default" | "granted" | "denied" | "unsupported";

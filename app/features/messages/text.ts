/** Pure helpers for how a message reads: links, mentions, days and groups. */
import { MAX_MESSAGE_BYTES, MAX_MESSAGE_CHARS } from "~/crypto/constants";

export type Segment =
  { kind: "text"; text: string } | { kind: "link"; text: string; href: string } | { kind: "mention"; text: string; username: string };

const TOKEN = /\bhttps?:\/\/[^\s<>"']+|(?<![\w@])@([A-Za-z0-9_]{3,32})\b/g;

/** A URL that may be a link: http(s) only, never `javascript:` or anything else. */
export function safeHref(url: string): string | null {
  try {
    const parsed = new URL(url);
    return parsed.protocol === "http:" || parsed.protocol === "https:" ? parsed.toString() : null;
  } catch {
    return null;
  }
}

/** Splits a message's text into plain text, http(s) links and @mentions. */
export function segments(text: string): Segment[] {
  const out: Segment[] = [];
  let last = 0;
  for (const match of text.matchAll(TOKEN)) {
    const start = match.index ?? 0;
    let token = match[0];
    if (match[1] === undefined) token = token.replace(/[.,;:!?)\]}]+$/, "");
    if (start > last) out.push({ kind: "text", text: text.slice(last, start) });
    const href = match[1] === undefined ? safeHref(token) : null;
    if (match[1] !== undefined) out.push({ kind: "mention", text: token, username: match[1] });
    else if (href) out.push({ kind: "link", text: token, href });
    else out.push({ kind: "text", text: token });
    last = start + token.length;
  }
  if (last < text.length) out.push({ kind: "text", text: text.slice(last) });
  return out;
}

/** Whether the text mentions the user (case-insensitive, as the notification rule reads it). */
export const mentions = (text: string, username: string) =>
  segments(text).some((s) => s.kind === "mention" && s.username.toLowerCase() === username.toLowerCase());

const toDate = (created: string) => new Date(created.replace(" ", "T"));
const dayKey = (date: Date) => `${date.getFullYear()}-${date.getMonth()}-${date.getDate()}`;

/** The separator above the first message of a day: "Today", "Yesterday" or the date. */
export function dayLabel(created: string, now: Date = new Date()): string {
  const date = toDate(created);
  if (Number.isNaN(date.getTime())) return "";
  if (dayKey(date) === dayKey(now)) return "Today";
  const yesterday = new Date(now);
  yesterday.setDate(now.getDate() - 1);
  if (dayKey(date) === dayKey(yesterday)) return "Yesterday";
  return new Intl.DateTimeFormat(undefined, {
    weekday: "long",
    day: "numeric",
    month: "long",
    year: date.getFullYear() === now.getFullYear() ? undefined : "numeric",
  }).format(date);
}

const GROUP_GAP_MS = 5 * 60_000;

/** Whether a message continues its predecessor's group: same sender, same day, within five minutes. */
export function continuesGroup(
  previous: { senderId: string; created: string } | undefined,
  current: { senderId: string; created: string },
): boolean {
  if (!previous || previous.senderId !== current.senderId) return false;
  const a = toDate(previous.created);
  const b = toDate(current.created);
  return dayKey(a) === dayKey(b) && b.getTime() - a.getTime() < GROUP_GAP_MS;
}

/** Whether a new day starts with this message. */
export const startsDay = (previous: { created: string } | undefined, current: { created: string }) =>
  !previous || dayKey(toDate(previous.created)) !== dayKey(toDate(current.created));

/** The first line of a text, shortened for a reply quote. */
export const firstLine = (text: string, max = 120) => {
  const line = text.split("\n", 1)[0] ?? "";
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
};

const timeFormat = new Intl.DateTimeFormat(undefined, { hour: "2-digit", minute: "2-digit", hour12: false });

/** A message's time of day, as the list shows it ("14:05"). */
export function formatTime(created: string) {
  const date = new Date(created.replace(" ", "T"));
  return Number.isNaN(date.getTime()) ? "" : timeFormat.format(date);
}

/**
 * Too long to send (the sealed message holds 16,000 characters): what the box says, or null. The boxes
 * take more (a long paste is not cut off, nothing is lost) and say so instead of sending.
 */
export function tooLongText(text: string): string | null {
  if (text.length <= MAX_MESSAGE_CHARS) return null;
  return `This message is ${text.length.toLocaleString("en-US")} characters long; a message holds at most ${MAX_MESSAGE_CHARS.toLocaleString("en-US")}.`;
}

/**
 * Whether what a message encrypts (its text with what it carries, `encodeBody`) is more than a message
 * holds: a text within the limit nearly always fits; one of thousands of control characters may not.
 */
export const payloadTooLong = (encoded: string) => new TextEncoder().encode(encoded).length > MAX_MESSAGE_BYTES;
export const PAYLOAD_TOO_LONG = "This message is too long to send. Shorten it and try again.";

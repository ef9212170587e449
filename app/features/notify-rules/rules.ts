/**
 * Notification choices per conversation and "Do not disturb" hours: what the page uses for its own
 * notifications and what the server reads (collection notify_rules, pocketbase/push_rules.go, which
 * applies the same rules) to decide whether to push to a user with no open page. Keywords are not
 * here: they stay in the encrypted private settings, so only an open page can match them.
 */
export type NotifyLevel = "all" | "mentions" | "nothing";

export interface ConversationRule {
  level?: NotifyLevel;
  /** Muted until this time (ms since 1970); MUTED_ALWAYS for "always". */
  mutedUntil?: number;
}

export interface QuietHours {
  enabled: boolean;
  /** "HH:MM", in `timeZone`; a span past midnight (22:00 to 07:00) is allowed. */
  from: string;
  to: string;
  /** An IANA time zone, e.g. "Europe/Paris". */
  timeZone: string;
}

export interface NotifyRules {
  conversations: Record<string, ConversationRule>;
  quiet?: QuietHours;
  /** Every notification paused until this time (ms since 1970): "Pause notifications for 1 h" or "until tomorrow". */
  pausedUntil?: number;
}

/** The latest time a Date can hold: "muted always". */
export const MUTED_ALWAYS = 8_640_000_000_000_000;

export const EMPTY_RULES: NotifyRules = { conversations: {} };

/** Direct conversations notify for every message unless told otherwise; channels for mentions and keywords. */
export const defaultLevel = (direct: boolean): NotifyLevel => (direct ? "all" : "mentions");

const minutesOf = (hhmm: string) => {
  const match = /^([01]\d|2[0-3]):([0-5]\d)$/.exec(hhmm);
  return match ? Number(match[1]) * 60 + Number(match[2]) : null;
};

/** Whether `now` falls in the quiet hours (in their own time zone). */
export function inQuietHours(quiet: QuietHours | undefined, now: Date): boolean {
  if (!quiet?.enabled) return false;
  const from = minutesOf(quiet.from);
  const to = minutesOf(quiet.to);
  if (from === null || to === null || from === to) return false;
  let parts: Intl.DateTimeFormatPart[];
  try {
    parts = new Intl.DateTimeFormat("en-GB", {
      timeZone: quiet.timeZone,
      hour: "2-digit",
      minute: "2-digit",
      hourCycle: "h23",
    }).formatToParts(now);
  } catch {
    return false;
  }
  const at = Number(parts.find((p) => p.type === "hour")?.value) * 60 + Number(parts.find((p) => p.type === "minute")?.value);
  return from < to ? at >= from && at < to : at >= from || at < to;
}

export interface Arrival {
  conversationId: string;
  direct: boolean;
  /** The message mentions the user (or, on an open page, matches one of their keywords). */
  mentioned: boolean;
}

/** Whether a message that arrived should notify the user, by their rules. */
export function wantsNotification(rules: NotifyRules, arrival: Arrival, now: Date): boolean {
  const rule = rules.conversations[arrival.conversationId] ?? {};
  if ((rule.mutedUntil ?? 0) > now.getTime()) return false;
  if ((rules.pausedUntil ?? 0) > now.getTime()) return false;
  if (inQuietHours(rules.quiet, now)) return false;
  const level = rule.level ?? defaultLevel(arrival.direct);
  return level === "all" || (level === "mentions" && arrival.mentioned);
}

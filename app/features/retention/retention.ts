/**
 * Retention (docs/decisions/0065-retention.md): how long the workspace keeps messages. The server
 * decides and deletes (pocketbase/retention.go); pages show the period and drop what is older.
 */
/** The longest period a workspace or channel may set, in days (100 years). */
export const MAX_DAYS = 36_500;

/** The choices the console offers besides "a number of days" (0 keeps messages forever). */
export const PRESET_DAYS = [0, 30, 90, 365] as const;

/** What a member's pages read (GET /api/retention): the workspace's policy and the days that apply to each of their conversations (none: forever). */
export interface RetentionPolicy {
  days: number;
  perChannel: boolean;
  keepPinned: boolean;
  channels: Record<string, number>;
  /** The clock of the last sweep that deleted anything (ISO 8601; absent before one): ADR 81. */
  sweptAt?: string;
}

export const FOREVER: RetentionPolicy = { days: 0, perChannel: false, keepPinned: false, channels: {} };

/** The header's words for a period: "Messages are kept for 90 days" ("" when kept forever). */
export function keptFor(days: number): string {
  if (days <= 0) return "";
  return `Messages are kept for ${days} ${days === 1 ? "day" : "days"}`;
}

/** The policy's words in an export: the header's, or "Messages are kept forever". */
export const policyLine = (days: number) => keptFor(days) || "Messages are kept forever";

/** The period's words in the console and in exports: "Forever" or "90 days". */
export const periodLabel = (days: number) => (days <= 0 ? "Forever" : `${days} ${days === 1 ? "day" : "days"}`);

/** The oldest time still kept (ISO 8601) for a period, or null when messages are kept forever. */
export function cutoffOf(days: number, now = Date.now()): string | null {
  if (days <= 0) return null;
  return new Date(now - days * 24 * 60 * 60 * 1000).toISOString();
}

/** Server times ("2026-11-29 01:02:03.456Z") and ISO times compare alike once the space is a "T". */
export const isoTime = (time: string) => time.replace(" ", "T");

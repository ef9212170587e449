import { describe, expect, it } from "vitest";
import {
  defaultLevel,
  inQuietHours,
  MUTED_ALWAYS,
  wantsNotification,
  type NotifyRules,
  type QuietHours,
} from "~/features/notify-rules/rules";
import { compactRules, muteEnd, nextMuteEnd } from "~/features/notify-rules/mute";
import { canonicalTimeZone, MAX_RULE_CONVERSATIONS, notifyRulesSchema, storedRules } from "~/features/notify-rules/validation";
import { chimes, notifiesByRules } from "~/features/notifications/notify";

const CHANNEL = "0b6f1c1e-4a7d-4c39-9d5e-2f1a3b4c5d6e";
const DIRECT = "7c9e6679-7425-40de-944b-e07fc1f90ae7";
const at = (iso: string) => new Date(iso);
const night = (timeZone: string): QuietHours => ({ enabled: true, from: "22:00", to: "07:00", timeZone });

describe("inQuietHours", () => {
  it("covers a span past midnight, start included and end excluded, in its own time zone (Paris in winter: UTC+1)", () => {
    const quiet = night("Europe/Paris");
    expect(inQuietHours(quiet, at("2026-01-15T20:59:00Z"))).toBe(false); // 21:59 in Paris
    expect(inQuietHours(quiet, at("2026-01-15T21:00:00Z"))).toBe(true); // 22:00
    expect(inQuietHours(quiet, at("2026-01-15T23:30:00Z"))).toBe(true); // 00:30, the next day
    expect(inQuietHours(quiet, at("2026-01-16T05:59:00Z"))).toBe(true); // 06:59
    expect(inQuietHours(quiet, at("2026-01-16T06:00:00Z"))).toBe(false); // 07:00
    expect(inQuietHours(quiet, at("2026-01-16T12:00:00Z"))).toBe(false); // 13:00
  });

  it("follows the zone's summer time (Paris in July: UTC+2)", () => {
    const quiet = night("Europe/Paris");
    expect(inQuietHours(quiet, at("2026-07-15T19:59:00Z"))).toBe(false); // 21:59
    expect(inQuietHours(quiet, at("2026-07-15T20:00:00Z"))).toBe(true); // 22:00
    expect(inQuietHours(quiet, at("2026-07-16T04:59:00Z"))).toBe(true); // 06:59
    expect(inQuietHours(quiet, at("2026-07-16T05:00:00Z"))).toBe(false); // 07:00
  });

  it("reads the same moment in each zone: 22:30 UTC is night in Paris and Tokyo's morning is not", () => {
    const moment = at("2026-01-15T22:30:00Z");
    expect(inQuietHours(night("Europe/Paris"), moment)).toBe(true); // 23:30
    expect(inQuietHours(night("America/New_York"), moment)).toBe(false); // 17:30
    expect(inQuietHours(night("Asia/Tokyo"), moment)).toBe(false); // 07:30, the next day
    expect(inQuietHours(night("Asia/Tokyo"), at("2026-01-15T21:59:00Z"))).toBe(true); // 06:59
    expect(inQuietHours(night("UTC"), moment)).toBe(true);
    // half-hour zones: 16:30 UTC is 22:00 in Kolkata (UTC+5:30)
    expect(inQuietHours(night("Asia/Kolkata"), at("2026-01-15T16:29:00Z"))).toBe(false);
    expect(inQuietHours(night("Asia/Kolkata"), at("2026-01-15T16:30:00Z"))).toBe(true);
  });

  it("covers a span within one day", () => {
    const office = { enabled: true, from: "09:00", to: "17:30", timeZone: "America/New_York" };
    expect(inQuietHours(office, at("2026-01-15T13:59:00Z"))).toBe(false); // 08:59
    expect(inQuietHours(office, at("2026-01-15T14:00:00Z"))).toBe(true); // 09:00
    expect(inQuietHours(office, at("2026-01-15T22:29:00Z"))).toBe(true); // 17:29
    expect(inQuietHours(office, at("2026-01-15T22:30:00Z"))).toBe(false); // 17:30
  });

  it("is never quiet when off, absent, empty (same start and end) or unreadable", () => {
    const moment = at("2026-01-15T23:30:00Z");
    expect(inQuietHours(undefined, moment)).toBe(false);
    expect(inQuietHours({ ...night("Europe/Paris"), enabled: false }, moment)).toBe(false);
    expect(inQuietHours({ ...night("Europe/Paris"), from: "07:00" }, moment)).toBe(false);
    expect(inQuietHours(night("Mars/Olympus_Mons"), moment)).toBe(false);
    expect(inQuietHours({ ...night("Europe/Paris"), from: "24:00" }, moment)).toBe(false);
    expect(inQuietHours({ ...night("Europe/Paris"), to: "7:00" }, moment)).toBe(false);
  });
});

describe("wantsNotification", () => {
  const now = at("2026-01-15T12:00:00Z");
  const none: NotifyRules = { conversations: {} };
  const plain = (conversationId: string, direct: boolean) => ({ conversationId, direct, mentioned: false });
  const mention = (conversationId: string, direct: boolean) => ({ conversationId, direct, mentioned: true });

  it("by default: every message of a direct conversation, only mentions in a channel", () => {
    expect(defaultLevel(true)).toBe("all");
    expect(defaultLevel(false)).toBe("mentions");
    expect(wantsNotification(none, plain(DIRECT, true), now)).toBe(true);
    expect(wantsNotification(none, plain(CHANNEL, false), now)).toBe(false);
    expect(wantsNotification(none, mention(CHANNEL, false), now)).toBe(true);
  });

  it("follows the conversation's level", () => {
    const rules = (level: "all" | "mentions" | "nothing"): NotifyRules => ({
      conversations: { [CHANNEL]: { level }, [DIRECT]: { level } },
    });
    expect(wantsNotification(rules("all"), plain(CHANNEL, false), now)).toBe(true);
    expect(wantsNotification(rules("mentions"), plain(DIRECT, true), now)).toBe(false);
    expect(wantsNotification(rules("mentions"), mention(DIRECT, true), now)).toBe(true);
    expect(wantsNotification(rules("nothing"), mention(CHANNEL, false), now)).toBe(false);
    expect(wantsNotification(rules("nothing"), plain(DIRECT, true), now)).toBe(false);
    // another conversation keeps its default
    expect(wantsNotification(rules("nothing"), mention("11111111-2222-4333-8444-555555555555", false), now)).toBe(true);
  });

  it("a mute silences everything until it ends (then the level applies again); muted always never ends", () => {
    const until = now.getTime() + 60_000;
    const muted: NotifyRules = { conversations: { [CHANNEL]: { level: "all", mutedUntil: until } } };
    expect(wantsNotification(muted, mention(CHANNEL, false), now)).toBe(false);
    expect(wantsNotification(muted, mention(CHANNEL, false), new Date(until - 1))).toBe(false);
    expect(wantsNotification(muted, plain(CHANNEL, false), new Date(until))).toBe(true);
    const always: NotifyRules = { conversations: { [DIRECT]: { mutedUntil: MUTED_ALWAYS } } };
    expect(wantsNotification(always, mention(DIRECT, true), at("2199-12-31T23:59:00Z"))).toBe(false);
    expect(new Date(MUTED_ALWAYS).getTime()).toBe(MUTED_ALWAYS); // the latest time a Date holds
  });

  it("the Do not disturb hours silence every conversation, whatever its level", () => {
    const rules: NotifyRules = { conversations: { [CHANNEL]: { level: "all" } }, quiet: night("Europe/Paris") };
    expect(wantsNotification(rules, mention(CHANNEL, false), at("2026-01-15T23:30:00Z"))).toBe(false);
    expect(wantsNotification(rules, plain(DIRECT, true), at("2026-01-15T23:30:00Z"))).toBe(false);
    expect(wantsNotification(rules, plain(CHANNEL, false), at("2026-01-15T12:00:00Z"))).toBe(true);
  });
});

describe("the page's notifications follow the rules", () => {
  const now = at("2026-01-15T12:00:00Z");
  const check = { text: "lunch?", own: false, username: "bob", keywords: ["deploy"] };

  it("a keyword or a mention counts as mentioned; own messages never notify, even with All messages", () => {
    const none: NotifyRules = { conversations: {} };
    expect(notifiesByRules(none, { id: CHANNEL }, check, now).notify).toBe(false);
    expect(notifiesByRules(none, { id: CHANNEL }, { ...check, text: "the deploy is done" }, now)).toEqual({
      notify: true,
      mention: false,
      keyword: "deploy",
    });
    expect(notifiesByRules(none, { id: CHANNEL }, { ...check, text: "@bob look" }, now).notify).toBe(true);
    expect(notifiesByRules(none, { id: DIRECT, direct: true }, check, now).notify).toBe(true);
    const all: NotifyRules = { conversations: { [CHANNEL]: { level: "all" } } };
    expect(notifiesByRules(all, { id: CHANNEL }, check, now).notify).toBe(true);
    expect(notifiesByRules(all, { id: CHANNEL }, { ...check, own: true }, now).notify).toBe(false);
    const nothing: NotifyRules = { conversations: { [CHANNEL]: { level: "nothing" } } };
    expect(notifiesByRules(nothing, { id: CHANNEL }, { ...check, text: "@bob deploy" }, now).notify).toBe(false);
  });

  it("the open conversation's chime: silenced by a mute, Nothing and Do not disturb, not by Mentions", () => {
    expect(chimes({ conversations: {} }, CHANNEL, now)).toBe(true);
    expect(chimes({ conversations: { [CHANNEL]: { level: "mentions" } } }, CHANNEL, now)).toBe(true);
    expect(chimes({ conversations: { [CHANNEL]: { level: "nothing" } } }, CHANNEL, now)).toBe(false);
    expect(chimes({ conversations: { [CHANNEL]: { mutedUntil: MUTED_ALWAYS } } }, CHANNEL, now)).toBe(false);
    expect(chimes({ conversations: {}, quiet: { ...night("UTC"), from: "11:00", to: "13:00" } }, CHANNEL, now)).toBe(false);
  });
});

describe("mutes", () => {
  it("end after 1 hour, 8 hours, at 08:00 on the next day (local), or never", () => {
    const now = new Date(2026, 0, 15, 23, 30);
    expect(muteEnd("hour", now)).toBe(now.getTime() + 3_600_000);
    expect(muteEnd("eight-hours", now)).toBe(now.getTime() + 8 * 3_600_000);
    expect(muteEnd("tomorrow", now)).toBe(new Date(2026, 0, 16, 8, 0).getTime());
    expect(muteEnd("tomorrow", new Date(2026, 11, 31, 9, 0))).toBe(new Date(2027, 0, 1, 8, 0).getTime());
    expect(muteEnd("always", now)).toBe(MUTED_ALWAYS);
  });

  it("ended mutes and empty entries are dropped before saving; the next end is known", () => {
    const now = 1_000_000;
    const rules: NotifyRules = {
      conversations: { [CHANNEL]: { level: "all", mutedUntil: now - 1 }, [DIRECT]: { mutedUntil: now + 5 }, x: {} },
      quiet: night("UTC"),
    };
    expect(compactRules(rules, now)).toEqual({
      conversations: { [CHANNEL]: { level: "all" }, [DIRECT]: { mutedUntil: now + 5 } },
      quiet: night("UTC"),
    });
    expect(nextMuteEnd(rules, now)).toBe(now + 5);
    expect(nextMuteEnd({ conversations: { [DIRECT]: { mutedUntil: MUTED_ALWAYS } } }, now)).toBeNull();
  });
});

describe("the rules' validation", () => {
  const valid = { conversations: { [CHANNEL]: { level: "nothing", mutedUntil: MUTED_ALWAYS } }, quiet: night("Europe/Paris") };
  const refused = (value: unknown) => !notifyRulesSchema.safeParse(value).success;

  it("accepts well-formed rules and names time zones canonically", () => {
    expect(notifyRulesSchema.parse(valid)).toEqual(valid);
    expect(notifyRulesSchema.parse({ conversations: {}, quiet: night("europe/paris") }).quiet?.timeZone).toBe("Europe/Paris");
    expect(canonicalTimeZone("America/Argentina/Buenos_Aires")).toMatch(/^America\/(Argentina\/)?Buenos_Aires$/);
    expect(canonicalTimeZone("Etc/GMT+1")).toBe("Etc/GMT+1");
  });

  it("refuses levels, mutes, times and time zones out of their range, unknown fields and too many conversations", () => {
    const rule = (r: unknown) => ({ conversations: { [CHANNEL]: r } });
    expect(refused(rule({ level: "loud" }))).toBe(true);
    expect(refused(rule({ mutedUntil: -1 }))).toBe(true);
    expect(refused(rule({ mutedUntil: 1.5 }))).toBe(true);
    expect(refused(rule({ mutedUntil: MUTED_ALWAYS + 1 }))).toBe(true);
    expect(refused(rule({ mutedUntil: "1" }))).toBe(true);
    expect(refused(rule({ muted: true }))).toBe(true);
    expect(refused({ conversations: { "not-a-uuid": {} } })).toBe(true);
    expect(refused({ conversations: {}, extra: 1 })).toBe(true);
    for (const time of ["24:00", "12:60", "7:00", "07:00:00", ""])
      expect(refused({ conversations: {}, quiet: { ...night("UTC"), from: time } })).toBe(true);
    for (const zone of ["Mars/Olympus_Mons", "+01:00", "Local", "", "../../etc/passwd", "Europe/Paris".repeat(10)])
      expect(refused({ conversations: {}, quiet: night(zone) }), zone).toBe(true);
    expect(refused({ conversations: {}, quiet: { ...night("UTC"), to: "22:00" } })).toBe(true);
    expect(refused({ conversations: {}, quiet: { ...night("UTC"), to: "22:00", enabled: false } })).toBe(false);
    const many = (n: number) => ({
      conversations: Object.fromEntries(
        Array.from({ length: n }, (_, i) => [`00000000-0000-4000-8000-${String(i).padStart(12, "0")}`, { level: "all" }]),
      ),
    });
    expect(refused(many(MAX_RULE_CONVERSATIONS))).toBe(false);
    expect(refused(many(MAX_RULE_CONVERSATIONS + 1))).toBe(true);
  });

  it("reads stored rules leniently: what does not pass is left out, the rest kept", () => {
    expect(storedRules(null)).toEqual({ conversations: {} });
    expect(
      storedRules({ conversations: { [CHANNEL]: { level: "all" }, [DIRECT]: { level: "loud" }, x: {} }, quiet: night("Mars/X") }),
    ).toEqual({
      conversations: { [CHANNEL]: { level: "all" } },
    });
  });
});

describe("the pause (Pause notifications for 1 h / until tomorrow)", () => {
  const now = at("2026-01-15T12:00:00Z");
  const later = now.getTime() + 3_600_000;

  it("silences every conversation, whatever its level, and the ring's check too, until it ends", () => {
    const rules: NotifyRules = { conversations: { [CHANNEL]: { level: "all" } }, pausedUntil: later };
    expect(wantsNotification(rules, { conversationId: DIRECT, direct: true, mentioned: true }, now)).toBe(false);
    expect(wantsNotification(rules, { conversationId: CHANNEL, direct: false, mentioned: true }, now)).toBe(false);
    expect(chimes(rules, CHANNEL, now)).toBe(false);
    expect(wantsNotification(rules, { conversationId: DIRECT, direct: true, mentioned: false }, new Date(later))).toBe(true);
  });

  it("is kept while it lasts and dropped once over; checked and read back leniently", () => {
    expect(compactRules({ conversations: {}, pausedUntil: later }, now.getTime())).toEqual({ conversations: {}, pausedUntil: later });
    expect(compactRules({ conversations: {}, pausedUntil: later }, later + 1)).toEqual({ conversations: {} });
    expect(nextMuteEnd({ conversations: {}, pausedUntil: later }, now.getTime())).toBe(later);
    expect(notifyRulesSchema.safeParse({ conversations: {}, pausedUntil: later }).success).toBe(true);
    expect(notifyRulesSchema.safeParse({ conversations: {}, pausedUntil: -1 }).success).toBe(false);
    expect(storedRules({ conversations: {}, pausedUntil: "soon" })).toEqual({ conversations: {} });
    expect(storedRules({ conversations: { x: 1 }, pausedUntil: later })).toEqual({ conversations: {}, pausedUntil: later });
  });
});

import { MUTED_ALWAYS, type ConversationRule, type NotifyRules } from "~/features/notify-rules/rules";

/** The mutes the conversation header offers, by their words. */
export type MuteChoice = "hour" | "eight-hours" | "tomorrow" | "always";

export const MUTE_CHOICES: { choice: MuteChoice; label: string }[] = [
  { choice: "hour", label: "Mute for 1 hour" },
  { choice: "eight-hours", label: "Mute for 8 hours" },
  { choice: "tomorrow", label: "Mute until tomorrow" },
  { choice: "always", label: "Mute always" },
];

const HOUR_MS = 3_600_000;

/** When a mute chosen at `now` ends (ms since 1970): "until tomorrow" is 08:00 on the next day, in this device's time. */
export function muteEnd(choice: MuteChoice, now: Date): number {
  switch (choice) {
    case "hour":
      return now.getTime() + HOUR_MS;
    case "eight-hours":
      return now.getTime() + 8 * HOUR_MS;
    case "tomorrow":
      return new Date(now.getFullYear(), now.getMonth(), now.getDate() + 1, 8, 0, 0, 0).getTime();
    case "always":
      return MUTED_ALWAYS;
  }
}

/** Whether the conversation is muted at `now`. */
export const isMuted = (rule: ConversationRule | undefined, now: number) => (rule?.mutedUntil ?? 0) > now;

/** "Muted always", "Muted until 14:05", or "Muted until Tue 08:00" when the mute ends on another day. */
export function mutedText(mutedUntil: number, now: Date): string {
  if (mutedUntil >= MUTED_ALWAYS) return "Muted always";
  const end = new Date(mutedUntil);
  const time = end.toLocaleTimeString([], { hour: "2-digit", minute: "2-digit", hourCycle: "h23" });
  return end.toDateString() === now.toDateString()
    ? `Muted until ${time}`
    : `Muted until ${end.toLocaleDateString([], { weekday: "short" })} ${time}`;
}

/** The rules without what no longer does anything: ended mutes, and conversations left with neither a choice nor a mute. */
export function compactRules(rules: NotifyRules, now: number): NotifyRules {
  const conversations: Record<string, ConversationRule> = {};
  for (const [id, rule] of Object.entries(rules.conversations)) {
    const kept: ConversationRule = {};
    if (rule.level) kept.level = rule.level;
    if (isMuted(rule, now)) kept.mutedUntil = rule.mutedUntil;
    if (kept.level || kept.mutedUntil) conversations[id] = kept;
  }
  return {
    conversations,
    ...(rules.quiet ? { quiet: rules.quiet } : {}),
    ...((rules.pausedUntil ?? 0) > now ? { pausedUntil: rules.pausedUntil } : {}),
  };
}

/** The next moment a mute or the pause ends (so a muted mark can go away then), or null when none will. */
export function nextMuteEnd(rules: NotifyRules, now: number): number | null {
  let next: number | null = null;
  for (const rule of [...Object.values(rules.conversations), { mutedUntil: rules.pausedUntil }]) {
    const end = rule.mutedUntil ?? 0;
    if (end > now && end < MUTED_ALWAYS && (next === null || end < next)) next = end;
  }
  return next;
}

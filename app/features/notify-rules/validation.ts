import { z } from "zod";
import { UUID_PATTERN } from "~/features/channels/limits";
import { MUTED_ALWAYS, type ConversationRule, type NotifyRules, type QuietHours } from "~/features/notify-rules/rules";

/**
 * The most conversations with a choice or a mute: the stored record holds at most 64 KB of JSON
 * (pb_migrations/1795366480_push.js), and the longest entry (an id, "mentions" and "muted always")
 * takes about 90 bytes.
 */
export const MAX_RULE_CONVERSATIONS = 500;

const CLOCK = /^([01]\d|2[0-3]):[0-5]\d$/;
// IANA names ("Europe/Paris", "America/Argentina/Buenos_Aires", "Etc/GMT+1", "UTC"); not offsets
// ("+01:00"), which the server's time zone database does not read.
const ZONE_NAME = /^[A-Za-z][A-Za-z0-9_+\-/]{0,63}$/;

/** The time zone's canonical name when Intl knows it ("europe/paris" is "Europe/Paris"), otherwise null. */
export function canonicalTimeZone(name: string): string | null {
  if (!ZONE_NAME.test(name)) return null;
  try {
    return new Intl.DateTimeFormat("en-GB", { timeZone: name }).resolvedOptions().timeZone;
  } catch {
    return null;
  }
}

const clock = (which: string) => z.string().regex(CLOCK, `The "${which}" time must read HH:MM (00:00 to 23:59).`);

export const conversationRuleSchema: z.ZodType<ConversationRule> = z
  .object({
    level: z.enum(["all", "mentions", "nothing"], { message: 'A level is "all", "mentions" or "nothing".' }).optional(),
    mutedUntil: z
      .number({ message: "mutedUntil must be a number." })
      .int("mutedUntil must be a whole number of milliseconds.")
      .min(0, "mutedUntil must not be negative.")
      .max(MUTED_ALWAYS, "mutedUntil is past the latest time there is.")
      .optional(),
  })
  .strict();

const pausedUntilSchema = z
  .number({ message: "pausedUntil must be a number." })
  .int("pausedUntil must be a whole number of milliseconds.")
  .min(0, "pausedUntil must not be negative.")
  .max(MUTED_ALWAYS, "pausedUntil is past the latest time there is.");

export const quietHoursSchema: z.ZodType<QuietHours, z.ZodTypeDef, unknown> = z
  .object({
    enabled: z.boolean({ message: "enabled must be true or false." }),
    from: clock("from"),
    to: clock("to"),
    timeZone: z
      .string({ message: "timeZone must be a time zone name." })
      .max(64, "Unknown time zone.")
      .transform((name, ctx) => {
        const canonical = canonicalTimeZone(name);
        if (canonical) return canonical;
        ctx.addIssue({ code: z.ZodIssueCode.custom, message: "Unknown time zone." });
        return z.NEVER;
      }),
  })
  .strict()
  .refine((q) => !q.enabled || q.from !== q.to, "Do not disturb must not start and end at the same time.");

export const notifyRulesSchema: z.ZodType<NotifyRules, z.ZodTypeDef, unknown> = z
  .object({
    conversations: z
      .record(z.string().regex(UUID_PATTERN, "Conversations are named by their id (a UUID)."), conversationRuleSchema)
      .refine(
        (list) => Object.keys(list).length <= MAX_RULE_CONVERSATIONS,
        `Notification choices can be kept for at most ${MAX_RULE_CONVERSATIONS} conversations.`,
      ),
    quiet: quietHoursSchema.optional(),
    pausedUntil: pausedUntilSchema.optional(),
  })
  .strict();

/** What the page sends to save: the whole set of rules. */
export const saveNotifyRulesSchema = z.object({ rules: notifyRulesSchema }).strict();

/**
 * Rules as stored, read back leniently: the owner may write the record through PocketBase's own API,
 * so what does not pass is left out (one conversation, or the quiet hours) rather than refused whole.
 */
export function storedRules(value: unknown): NotifyRules {
  const whole = notifyRulesSchema.safeParse(value);
  if (whole.success) return whole.data;
  const raw = value && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
  const conversations: Record<string, ConversationRule> = {};
  const listed = raw.conversations && typeof raw.conversations === "object" ? Object.entries(raw.conversations) : [];
  for (const [id, rule] of listed) {
    const parsed = conversationRuleSchema.safeParse(rule);
    if (UUID_PATTERN.test(id) && parsed.success && Object.keys(conversations).length < MAX_RULE_CONVERSATIONS)
      conversations[id] = parsed.data;
  }
  const quiet = quietHoursSchema.safeParse(raw.quiet);
  const paused = pausedUntilSchema.safeParse(raw.pausedUntil);
  return {
    conversations,
    ...(quiet.success ? { quiet: quiet.data } : {}),
    ...(paused.success ? { pausedUntil: paused.data } : {}),
  };
}

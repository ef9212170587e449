import { z } from "zod";
import { isTargetLanguageCode } from "~/features/translation/languages";
import { DEFAULT_PRIVATE_SETTINGS } from "~/features/settings/defaults";

const CLOCK_CITIES = [
  "New York",
  "London",
  "Frankfurt",
  "Moscow",
  "Dubai",
  "Beijing",
  "Tokyo",
  "Sydney",
  "Los Angeles",
  "Paris",
  "Singapore",
  "Hong Kong",
] as const;

export const MAX_KEYWORDS = 50;
export const MAX_KEYWORD_CHARS = 100;

/** The private settings, checked in the browser before they are sealed (spec §7 limits). */
export const privateSettingsSchema = z
  .object({
    translationLanguage: z.string().refine(isTargetLanguageCode, "Unknown language."),
    translationEnabled: z.boolean(),
    desktopNotificationsEnabled: z.boolean(),
    notifyOnMention: z.boolean(),
    notifyKeywords: z
      .array(
        z
          .string()
          .trim()
          .min(1, "Keywords cannot be empty.")
          .max(MAX_KEYWORD_CHARS, `Keywords can be at most ${MAX_KEYWORD_CHARS} characters.`),
      )
      .max(MAX_KEYWORDS, `At most ${MAX_KEYWORDS} keywords.`)
      .refine((list) => new Set(list.map((k) => k.toLowerCase())).size === list.length, "Keywords must not repeat."),
    worldClockCities: z
      .array(z.enum(CLOCK_CITIES))
      .min(1, "Choose at least one city.")
      .max(7, "Choose at most 7 cities.")
      .refine((list) => new Set(list).size === list.length, "Cities must not repeat."),
    sendTypingIndicators: z.boolean(),
  })
  .strict();

export { DEFAULT_PRIVATE_SETTINGS };

/** What the server receives: the two switches it acts on, and the private settings as ciphertext. */
export const settingsRequestSchema = z
  .object({
    emailNotificationsEnabled: z.boolean(),
    emailIncludeContent: z.boolean(),
    encryptedSettings: z
      .string()
      .min(1)
      .max(16_000)
      .regex(/^[A-Za-z0-9_-]+$/, "Settings must be encrypted."),
  })
  .partial()
  .strict();

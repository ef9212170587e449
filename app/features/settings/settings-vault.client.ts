import { ChatError } from "~/lib/errors";
import type { PrivateSettings, UserSettings } from "~/lib/session-user";
import { openJson, sealJson } from "~/conversation/keyring/vault.client";
import { DEFAULT_PRIVATE_SETTINGS } from "~/features/settings/defaults";

// The schema (and its validator library) loads with the first settings opened or saved, not with the page.
const schema = () => import("~/features/settings/validation").then((m) => m.privateSettingsSchema);

// The private settings are one ciphertext bound to the user (docs/decisions/0010-keyring-and-settings-vault.md).
const aad = (userId: string) => `chatcrypt:settings:v1:${userId}`;

const PRIVATE_FIELDS = Object.keys(DEFAULT_PRIVATE_SETTINGS) as (keyof PrivateSettings)[];

export const privatePart = (settings: UserSettings): PrivateSettings =>
  Object.fromEntries(PRIVATE_FIELDS.map((field) => [field, settings[field]])) as unknown as PrivateSettings;

/** Opens the sealed settings; empty, altered or unreadable ones give the defaults. */
export async function openSettings(userId: string, sealed: string): Promise<PrivateSettings> {
  if (!sealed) return DEFAULT_PRIVATE_SETTINGS;
  try {
    const parsed = (await schema()).partial().safeParse(await openJson(userId, "settings", sealed, aad(userId)));
    return parsed.success ? { ...DEFAULT_PRIVATE_SETTINGS, ...parsed.data } : DEFAULT_PRIVATE_SETTINGS;
  } catch (error) {
    console.warn("Settings could not be opened; showing the defaults", error);
    return DEFAULT_PRIVATE_SETTINGS;
  }
}

/** Checks and seals the private settings; an invalid value is refused with its message. */
export async function sealSettings(userId: string, settings: PrivateSettings): Promise<string> {
  const parsed = (await schema()).safeParse(settings);
  if (!parsed.success) throw new ChatError(parsed.error.issues[0]?.message ?? "Invalid settings.");
  return sealJson(userId, "settings", parsed.data, aad(userId));
}

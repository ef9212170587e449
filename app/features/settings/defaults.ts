import type { PrivateSettings } from "~/lib/session-user";
import { DEFAULT_CLOCK_CITIES } from "~/features/world-clock/world-clock";

/** The private settings of a user who never saved any (kept apart from the schemas, so the page's first load needs no validator). */
export const DEFAULT_PRIVATE_SETTINGS: PrivateSettings = {
  translationLanguage: "EN-US",
  translationEnabled: false,
  // on, so direct messages and mentions notify once the browser allows it (ADR 0067)
  desktopNotificationsEnabled: true,
  notifyOnMention: true,
  notifyKeywords: [],
  worldClockCities: [...DEFAULT_CLOCK_CITIES],
  sendTypingIndicators: true,
};

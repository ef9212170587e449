import { useCallback, useRef, useState } from "react";
import { api } from "~/lib/api.client";
import { ChatError } from "~/lib/errors";
import type { SessionUser, UserSettings } from "~/lib/session-user";

export const SETTINGS_SAVE_FAILED = "Failed to save settings. Please try again.";

/** The user's settings (notifications, translation, world clock); `save` throws our text on failure. */
export function useSettings(user: SessionUser) {
  const [settings, setSettings] = useState<UserSettings>(user.settings);
  const settingsRef = useRef(settings);
  settingsRef.current = settings;

  const save = useCallback(async (update: Partial<UserSettings>) => {
    try {
      const { settings: saved } = await api<{ settings: UserSettings }>("/api/settings", update);
      setSettings(saved);
    } catch (error) {
      console.warn("Saving settings failed", error);
      throw new ChatError(SETTINGS_SAVE_FAILED);
    }
  }, []);

  return { settings, settingsRef, save };
}

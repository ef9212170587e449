import { useCallback, useEffect, useRef, useState } from "react";
import { api } from "~/lib/api.client";
import { ChatError } from "~/lib/errors";
import type { ServerSettings, SessionUser, UserSettings } from "~/lib/session-user";
import { openSettings, privatePart, sealSettings } from "~/features/settings/settings-vault.client";
import { DEFAULT_PRIVATE_SETTINGS } from "~/features/settings/defaults";
import { setTypingPreference } from "~/features/typing/typing.client";

export const SETTINGS_SAVE_FAILED = "Failed to save settings. Please try again.";

/**
 * The user's settings (notifications, translation, world clock). The private part is opened from its
 * ciphertext once the page has the keys; `save` seals it again and throws our text on failure.
 */
export function useSettings(user: SessionUser) {
  const [settings, setSettings] = useState<UserSettings>({ ...DEFAULT_PRIVATE_SETTINGS, ...user.settings });
  const settingsRef = useRef(settings);
  settingsRef.current = settings;
  useEffect(() => setTypingPreference(settings.sendTypingIndicators), [settings.sendTypingIndicators]);

  useEffect(() => {
    let live = true;
    void openSettings(user.id, user.encryptedSettings).then((opened) => live && setSettings((current) => ({ ...current, ...opened })));
    return () => {
      live = false;
    };
  }, [user.id, user.encryptedSettings]);

  const save = useCallback(
    async (update: Partial<UserSettings>) => {
      const next = { ...settingsRef.current, ...update };
      const sealed = await sealSettings(user.id, privatePart(next));
      try {
        const { settings: saved } = await api<{ settings: ServerSettings }>("/api/settings", {
          emailNotificationsEnabled: next.emailNotificationsEnabled,
          emailIncludeContent: next.emailIncludeContent,
          encryptedSettings: sealed,
        });
        setSettings({ ...next, ...saved });
      } catch (error) {
        console.warn("Saving settings failed", error);
        throw new ChatError(SETTINGS_SAVE_FAILED);
      }
    },
    [user.id],
  );

  return { settings, settingsRef, save };
}

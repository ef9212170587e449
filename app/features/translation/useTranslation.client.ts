import { useCallback, useEffect, useState } from "react";
import type { UserSettings } from "~/lib/session-user";
import type { DecryptedMessage } from "~/features/messages/messages.client";
import { cachedTranslation, translateTexts, TranslationUnavailable } from "~/features/translation/translate.client";

/**
 * Auto-translation of incoming messages (spec §4) when enabled: what is missing is translated in the
 * background, each message can show its original.
 */
export function useTranslation(
  messages: DecryptedMessage[],
  settings: UserSettings,
  save: (update: Partial<UserSettings>) => Promise<void>,
) {
  const [version, setVersion] = useState(0);
  const [notice, setNotice] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [showingOriginal, setShowingOriginal] = useState<ReadonlySet<string>>(new Set());
  const language = settings.translationEnabled ? settings.translationLanguage : null;

  useEffect(() => {
    if (!language) return;
    const texts = messages.filter((m) => !m.own && m.text && cachedTranslation(language, m.text) === undefined).map((m) => m.text);
    if (texts.length === 0) return;
    let live = true;
    translateTexts(language, texts).then(
      () => live && setVersion((v) => v + 1),
      (error) => live && setNotice(error instanceof TranslationUnavailable ? error.message : null),
    );
    return () => {
      live = false;
    };
  }, [messages, language]);

  const translationOf = useCallback(
    (m: DecryptedMessage) => (language && version >= 0 ? cachedTranslation(language, m.text) : undefined),
    // `version` changes when new translations arrive, so the list reads the cache again.
    [language, version],
  );

  const toggleOriginal = useCallback(
    (id: string) =>
      setShowingOriginal((prev) => {
        const next = new Set(prev);
        if (!next.delete(id)) next.add(id);
        return next;
      }),
    [],
  );

  async function choose(nextLanguage: string, enabled: boolean, onError: (text: string) => void) {
    setBusy(true);
    setNotice(null);
    try {
      await save({ translationLanguage: nextLanguage, translationEnabled: enabled });
    } catch (error) {
      onError(error instanceof Error ? error.message : String(error));
    } finally {
      setBusy(false);
    }
  }

  return { translationOf, showingOriginal, toggleOriginal, notice, busy, choose };
}

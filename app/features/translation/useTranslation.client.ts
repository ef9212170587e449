import { useCallback, useEffect, useRef, useState } from "react";
import type { UserSettings } from "~/lib/session-user";
import type { DecryptedMessage } from "~/features/messages/messages.client";
import { availableLanguages } from "~/features/translation/target-languages.client";
import { bcp47, failedText, OnceReporter } from "~/features/translation/notices";

/**
 * Auto-translation of incoming messages (spec §4) when enabled: what is missing is translated in the
 * background, each message can show its original. The languages the engine lacks are known from the
 * start; a failed translation is said once (`onProblem`), never repeated for each new message.
 */
export function useTranslation(
  messages: DecryptedMessage[],
  settings: UserSettings,
  save: (update: Partial<UserSettings>) => Promise<void>,
  onProblem: (text: string) => void,
) {
  const [version, setVersion] = useState(0);
  const [notice, setNotice] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [showingOriginal, setShowingOriginal] = useState<ReadonlySet<string>>(new Set());
  const [available, setAvailable] = useState<ReadonlySet<string> | null>(null);
  const reporter = useRef(new OnceReporter());
  const problem = useRef(onProblem);
  problem.current = onProblem;
  const language = settings.translationEnabled ? settings.translationLanguage : null;
  useEffect(() => {
    let live = true;
    void availableLanguages().then((list) => live && setAvailable(list));
    return () => {
      live = false;
    };
  }, []);

  const say = useCallback((text: string) => {
    setNotice(text);
    if (reporter.current.report(text)) problem.current(text);
  }, []);

  // The translator (its cache and batches) loads once translation is on: a page without it does without.
  const [engine, setEngine] = useState<typeof import("~/features/translation/translate.client") | null>(null);
  const wanted = Boolean(language);
  useEffect(() => {
    if (!wanted || engine) return;
    let live = true;
    import("~/features/translation/translate.client").then(
      (m) => live && setEngine(m),
      (error) => live && say(failedText(String(error?.message ?? error))),
    );
    return () => {
      live = false;
    };
  }, [wanted, engine, say]);

  useEffect(() => {
    if (!language || !engine) return;
    const texts = messages.filter((m) => !m.own && m.text && engine.cachedTranslation(language, m.text) === undefined).map((m) => m.text);
    if (texts.length === 0) return;
    let live = true;
    const stop = () => {
      live = false;
    };
    // (the language's name comes with the language list, loaded only for this)
    if (available && !available.has(language)) {
      void import("~/features/translation/availability").then((m) => live && say(m.notAvailableText(language)));
      return stop;
    }
    engine.translateTexts(language, texts).then(
      () => live && setVersion((v) => v + 1),
      (error) => live && say(error instanceof engine.TranslationUnavailable ? error.message : failedText(String(error?.message ?? error))),
    );
    return stop;
  }, [messages, language, available, say, engine]);

  const translationOf = useCallback(
    (m: DecryptedMessage) => (language && engine && version >= 0 ? engine.cachedTranslation(language, m.text) : undefined),
    // `version` changes when new translations arrive, so the list reads the cache again.
    [language, version, engine],
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

  return { translationOf, showingOriginal, toggleOriginal, notice, busy, choose, available, lang: language ? bcp47(language) : undefined };
}

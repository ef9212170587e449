import { useEffect, useId, useState } from "react";
import { languageOptions, NOT_AVAILABLE_HERE } from "~/features/translation/availability";

/** What the Translate dropdown shows and saves (TranslateMenu.tsx passes it on). */
export interface TranslateChoices {
  language: string;
  enabled: boolean;
  busy: boolean;
  notice: string | null;
  /** What the server's engine can translate into; null while unknown. */
  available: ReadonlySet<string> | null;
  onSave: (language: string, enabled: boolean) => void;
}

type Props = TranslateChoices & { close: () => void };

/** The open Translate dropdown (TranslateMenu.tsx): the target language (focused) and the switch. */
export function TranslatePanel({ language, enabled, busy, notice, available, onSave, close }: Props) {
  const [choice, setChoice] = useState(language);
  const selectId = useId();
  const hintId = useId();
  const options = languageOptions(available);
  const greyed = options.some((o) => o.disabled);

  useEffect(() => setChoice(language), [language]);
  useEffect(() => document.getElementById(selectId)?.focus(), [selectId]);

  return (
    <div className="dropdown-panel" role="group" aria-label="Translation">
      <label htmlFor={selectId}>Translate incoming messages to</label>
      <select id={selectId} value={choice} onChange={(e) => setChoice(e.target.value)} aria-describedby={greyed ? hintId : undefined}>
        {options.map((o) => (
          <option key={o.code} value={o.code} disabled={o.disabled} aria-disabled={o.disabled || undefined}>
            {o.label}
          </option>
        ))}
      </select>
      {greyed && (
        <p id={hintId} className="hint">
          Greyed languages: {NOT_AVAILABLE_HERE.toLowerCase()}.
        </p>
      )}
      {notice && <p className="form-error">{notice}</p>}
      <div className="modal-actions">
        {enabled && (
          <button type="button" className="btn btn-small" disabled={busy} onClick={() => (onSave(choice, false), close())}>
            Turn off translation
          </button>
        )}
        <button
          type="button"
          className="btn btn-small btn-primary"
          disabled={busy || options.some((o) => o.code === choice && o.disabled)}
          onClick={() => (onSave(choice, true), close())}
        >
          {enabled ? "Save language" : "Translate messages"}
        </button>
      </div>
    </div>
  );
}

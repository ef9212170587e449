import { useEffect, useId, useState } from "react";
import { useDropdown } from "~/ui/useDropdown";
import { TARGET_LANGUAGES } from "~/features/translation/languages";

interface Props {
  language: string;
  enabled: boolean;
  busy: boolean;
  notice: string | null;
  onSave: (language: string, enabled: boolean) => void;
}

/** Translate dropdown (spec §2.7): choose the target language and switch auto-translation on or off. */
export function TranslateMenu({ language, enabled, busy, notice, onSave }: Props) {
  const { open, setOpen, ref: panel } = useDropdown();
  const [choice, setChoice] = useState(language);
  const selectId = useId();

  useEffect(() => setChoice(language), [language]);

  return (
    <div className="dropdown" ref={panel}>
      <button
        type="button"
        className={`btn btn-small${enabled ? " active" : ""}`}
        aria-expanded={open}
        aria-haspopup="true"
        onClick={() => setOpen((o) => !o)}
      >
        Translate{enabled ? `: ${language}` : ""}
      </button>
      {open && (
        <div className="dropdown-panel" role="group" aria-label="Translation">
          <label htmlFor={selectId}>Translate incoming messages to</label>
          <select id={selectId} value={choice} onChange={(e) => setChoice(e.target.value)}>
            {TARGET_LANGUAGES.map((l) => (
              <option key={l.code} value={l.code}>
                {l.name} ({l.code})
              </option>
            ))}
          </select>
          {notice && <p className="form-error">{notice}</p>}
          <div className="modal-actions">
            {enabled && (
              <button type="button" className="btn btn-small" disabled={busy} onClick={() => onSave(choice, false)}>
                Turn off translation
              </button>
            )}
            <button
              type="button"
              className="btn btn-small btn-primary"
              disabled={busy}
              onClick={() => (onSave(choice, true), setOpen(false))}
            >
              {enabled ? "Save language" : "Translate messages"}
            </button>
          </div>
        </div>
      )}
    </div>
  );
}

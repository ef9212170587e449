import { Suspense } from "react";
import { useDropdown } from "~/ui/useDropdown";
import { preloadable } from "~/ui/preloadable";

// The language list and the menu's choices load when the button is first pointed at, focused or pressed.
const panel = preloadable(() => import("~/features/translation/TranslatePanel").then((m) => m.TranslatePanel));

interface Props {
  language: string;
  enabled: boolean;
  busy: boolean;
  notice: string | null;
  /** What the server's engine can translate into; null while unknown. */
  available: ReadonlySet<string> | null;
  onSave: (language: string, enabled: boolean) => void;
}

/** Translate dropdown (spec §2.7): choose the target language and switch auto-translation on or off. */
export function TranslateMenu(props: Props) {
  const { open, setOpen, ref } = useDropdown();
  const { language, enabled } = props;

  return (
    <div className="dropdown" ref={ref}>
      <button
        type="button"
        className={`btn btn-small${enabled ? " active" : ""}`}
        aria-expanded={open}
        aria-haspopup="true"
        onPointerEnter={() => void panel.preload()}
        onFocus={() => void panel.preload()}
        onClick={() => setOpen((o) => !o)}
      >
        Translate{enabled ? `: ${language}` : ""}
      </button>
      {open && (
        <Suspense fallback={null}>
          <panel.Component {...props} close={() => setOpen(false)} />
        </Suspense>
      )}
    </div>
  );
}

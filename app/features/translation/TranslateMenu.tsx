import { useDropdown } from "~/ui/useDropdown";
import { lazyPart } from "~/ui/lazyPart";
import type { TranslateChoices } from "~/features/translation/TranslatePanel";

// The language list and the menu's choices load when the button is first pointed at, focused or pressed.
const Panel = lazyPart(() => import("~/features/translation/TranslatePanel").then((m) => m.TranslatePanel));

/** Translate dropdown (spec §2.7): choose the target language and switch auto-translation on or off. */
export function TranslateMenu(props: TranslateChoices) {
  const { open, setOpen, close, ref } = useDropdown();
  const { language, enabled } = props;

  return (
    <div className="dropdown" ref={ref}>
      <button
        type="button"
        className={`btn btn-small${enabled ? " active" : ""}`}
        aria-expanded={open}
        aria-haspopup="true"
        onPointerEnter={() => void Panel.preload()}
        onFocus={() => void Panel.preload()}
        onClick={() => setOpen((o) => !o)}
      >
        Translate{enabled ? `: ${language}` : ""}
      </button>
      {open && <Panel {...props} close={close} />}
    </div>
  );
}

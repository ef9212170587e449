import { useDropdown } from "~/ui/useDropdown";

/** The header menu: 'Set World Clock' and the WhatsApp contact book. */
export function HeaderMenu({ onSetWorldClock, onContacts }: { onSetWorldClock: () => void; onContacts: () => void }) {
  const { open, setOpen, ref } = useDropdown();
  const choose = (action: () => void) => () => {
    setOpen(false);
    action();
  };
  return (
    <div className="dropdown" ref={ref}>
      <button type="button" className="btn btn-small" aria-haspopup="menu" aria-expanded={open} onClick={() => setOpen((o) => !o)}>
        Menu
      </button>
      {open && (
        <div className="dropdown-panel menu" role="menu" aria-label="Menu">
          <button type="button" role="menuitem" className="menu-item" onClick={choose(onSetWorldClock)}>
            Set World Clock
          </button>
          <button type="button" role="menuitem" className="menu-item" onClick={choose(onContacts)}>
            WhatsApp Contacts
          </button>
        </div>
      )}
    </div>
  );
}


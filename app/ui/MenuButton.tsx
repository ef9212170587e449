import { useEffect, useRef, type KeyboardEvent, type ReactNode } from "react";
import { useDropdown } from "~/ui/useDropdown";
import { placePanel } from "~/ui/placePanel";
import { afterOwnSteps } from "~/lib/history-steps.client";
import { useBackCloses } from "~/ui/useBackCloses.client";

interface Props {
  /** The button's text (and, beside it, an icon). */
  label: string;
  icon?: ReactNode;
  /** The button's accessible name, when it must differ from its text. */
  buttonLabel?: string;
  /** The menu's accessible name. */
  menuLabel: string;
  items: { label: string; onSelect: () => void }[];
  buttonClassName?: string;
  panelClassName?: string;
  itemClassName?: string;
  /** A menu laid out as a row: Left and Right move along it (as well as Up and Down). */
  horizontal?: boolean;
}

/**
 * A button that opens a menu (ARIA menu pattern): the first item takes focus, arrow keys (Left and
 * Right too in a row, `horizontal`), Home and End move, Esc (or a phone's Back) closes and gives focus
 * back to the button; choosing an item closes the menu. The menu opens where it can be seen whole
 * (placePanel.ts).
 */
export function MenuButton({
  label,
  buttonLabel,
  icon,
  menuLabel,
  items,
  buttonClassName = "btn btn-small",
  panelClassName = "dropdown-panel menu",
  itemClassName = "menu-item",
  horizontal = false,
}: Props) {
  const { open, setOpen, ref } = useDropdown();
  const button = useRef<HTMLButtonElement>(null);
  const panel = useRef<HTMLDivElement>(null);

  // (on a phone, Back closes it, as it closes a dialog: it left the conversation with the menu still open over the next one)
  useBackCloses(open, () => {
    setOpen(false);
    button.current?.focus();
  });
  // The item chosen acts once the menu has closed and its history entry is gone: a move made before
  // (the Admin console opened) was undone by that step back.
  const chosen = useRef<(() => void) | null>(null);
  useEffect(() => {
    const act = chosen.current;
    if (open || !act) return;
    chosen.current = null;
    afterOwnSteps(act);
  }, [open]);

  useEffect(() => {
    if (!open || !panel.current) return;
    placePanel(panel.current);
    panel.current.querySelector<HTMLElement>('[role="menuitem"]')?.focus();
  }, [open]);

  function keys(event: KeyboardEvent<HTMLDivElement>) {
    const entries = [...(panel.current?.querySelectorAll<HTMLElement>('[role="menuitem"]') ?? [])];
    const at = entries.indexOf(document.activeElement as HTMLElement);
    const go = (index: number) => entries[(index + entries.length) % entries.length]?.focus();
    if (event.key === "ArrowDown" || (horizontal && event.key === "ArrowRight")) go(at + 1);
    else if (event.key === "ArrowUp" || (horizontal && event.key === "ArrowLeft")) go(at - 1);
    else if (event.key === "Home") go(0);
    else if (event.key === "End") go(entries.length - 1);
    else if (event.key === "Escape") {
      setOpen(false);
      button.current?.focus();
    } else return;
    event.preventDefault();
    event.stopPropagation();
  }

  return (
    <div className="dropdown" ref={ref}>
      <button
        ref={button}
        type="button"
        className={buttonClassName}
        aria-haspopup="menu"
        aria-expanded={open}
        aria-label={buttonLabel}
        onClick={() => setOpen((o) => !o)}
      >
        {label}
        {icon}
      </button>
      {open && (
        <div
          ref={panel}
          className={panelClassName}
          role="menu"
          aria-label={menuLabel}
          aria-orientation={horizontal ? "horizontal" : undefined}
          onKeyDown={keys}
          tabIndex={-1}
        >
          {items.map((item) => (
            <button
              key={item.label}
              type="button"
              role="menuitem"
              className={itemClassName}
              onClick={() => {
                chosen.current = item.onSelect;
                setOpen(false);
                button.current?.focus();
              }}
            >
              {item.label}
            </button>
          ))}
        </div>
      )}
    </div>
  );
}

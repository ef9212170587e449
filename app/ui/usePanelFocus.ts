import { useEffect, useRef } from "react";

/**
 * A side panel that opens beside the page (News Feed, Members): on opening, focus moves to its first
 * control; Esc inside it closes it (not when a dialog opened from it has focus: that closes the dialog); on closing, focus returns to the control that opened it when it
 * was inside the panel (or fell to the page).
 */
export function usePanelFocus<T extends HTMLElement>(onClose: () => void) {
  const ref = useRef<T>(null);
  const close = useRef(onClose);
  close.current = onClose;

  useEffect(() => {
    const panel = ref.current;
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    // the first control shown (a phone's Back button is not, on a wide screen)
    const controls = panel ? [...panel.querySelectorAll<HTMLElement>("button, a[href], input, select, textarea")] : [];
    controls.find((control) => control.getClientRects().length > 0)?.focus();
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== "Escape" || event.defaultPrevented) return;
      // A dialog opened from the panel (and kept inside it) takes its own Esc: only the dialog closes.
      if (event.target instanceof Element && event.target.closest("dialog[open]")) return;
      event.preventDefault();
      close.current();
    };
    panel?.addEventListener("keydown", onKey);
    return () => {
      panel?.removeEventListener("keydown", onKey);
      const active = document.activeElement;
      const lost = !active || active === document.body || Boolean(panel?.contains(active));
      if (lost && opener?.isConnected) opener.focus();
    };
  }, []);

  return ref;
}

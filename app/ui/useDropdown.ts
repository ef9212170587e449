import { useCallback, useEffect, useRef, useState } from "react";

/**
 * A dropdown's open state: Esc and a click outside its container close it. Esc gives focus back to
 * the container's opener (its `aria-haspopup` button) when focus was inside.
 */
export function useDropdown<T extends HTMLElement = HTMLDivElement>() {
  const [open, setOpen] = useState(false);
  const ref = useRef<T>(null);
  /** Closes it; focus that was in it goes back to the button that opens it. */
  const close = useCallback(() => {
    const inside = ref.current?.contains(document.activeElement);
    setOpen(false);
    if (inside) ref.current?.querySelector<HTMLElement>("[aria-haspopup]")?.focus();
  }, []);
  useEffect(() => {
    if (!open) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.key === "Escape") close();
    };
    const onClick = (e: MouseEvent) => ref.current && !ref.current.contains(e.target as Node) && setOpen(false);
    document.addEventListener("keydown", onKey);
    document.addEventListener("mousedown", onClick);
    return () => {
      document.removeEventListener("keydown", onKey);
      document.removeEventListener("mousedown", onClick);
    };
  }, [open, close]);
  return { open, setOpen, close, ref };
}

import { useEffect, useId, useRef, type ReactNode } from "react";
import { FormActions, FormError } from "~/ui/Form";

/** An accessible dialog: named by its title, Esc and the backdrop close it, focus moves inside and returns. */
export function Modal({ title, onClose, children }: { title: string; onClose: () => void; children: ReactNode }) {
  const titleId = useId();
  const dialogRef = useRef<HTMLDivElement>(null);

  useEffect(() => {
    const previous = document.activeElement as HTMLElement | null;
    const dialog = dialogRef.current;
    const first = dialog?.querySelector<HTMLElement>("input, textarea, select, button:not([data-close])");
    (first ?? dialog)?.focus();
    const onKey = (event: KeyboardEvent) => {
      if (event.key === "Escape") {
        event.stopPropagation();
        onClose();
      } else if (event.key === "Tab" && dialog) {
        const focusable = [...dialog.querySelectorAll<HTMLElement>("input, textarea, select, button, a[href]")].filter(
          (el) => !el.hasAttribute("disabled"),
        );
        if (focusable.length === 0) return;
        const [firstEl, lastEl] = [focusable[0], focusable[focusable.length - 1]];
        if (event.shiftKey && document.activeElement === firstEl) {
          event.preventDefault();
          lastEl.focus();
        } else if (!event.shiftKey && document.activeElement === lastEl) {
          event.preventDefault();
          firstEl.focus();
        }
      }
    };
    document.addEventListener("keydown", onKey);
    return () => {
      document.removeEventListener("keydown", onKey);
      previous?.focus?.();
    };
  }, [onClose]);

  return (
    <div className="modal-backdrop" role="presentation" onMouseDown={(e) => e.target === e.currentTarget && onClose()}>
      <div ref={dialogRef} className="modal" role="dialog" aria-modal="true" aria-labelledby={titleId} tabIndex={-1}>
        <h2 id={titleId}>{title}</h2>
        {children}
      </div>
    </div>
  );
}

/** A yes/no dialog for destructive actions. */
export function ConfirmDialog(props: {
  title: string;
  message: ReactNode;
  confirmLabel: string;
  busy?: boolean;
  error?: string | null;
  onConfirm: () => void;
  onClose: () => void;
}) {
  return (
    <Modal title={props.title} onClose={props.onClose}>
      <p>{props.message}</p>
      <FormError message={props.error} />
      <FormActions
        busy={Boolean(props.busy)}
        submitLabel={props.confirmLabel}
        onCancel={props.onClose}
        onConfirm={props.onConfirm}
        danger
      />
    </Modal>
  );
}

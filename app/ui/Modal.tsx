import { useEffect, useId, useRef, type KeyboardEvent, type ReactNode } from "react";
import { FormActions, FormError } from "~/ui/Form";

const FOCUSABLE = "input, textarea, select, button, a[href], [tabindex]:not([tabindex='-1'])";

/**
 * An accessible dialog: a native <dialog> opened with showModal(), so the page behind it is inert
 * for pointer, keyboard and screen readers. Named by its title; Esc and the backdrop close it; focus
 * moves inside, Tab wraps, and focus returns to the control that opened it.
 */
export function Modal({ title, onClose, children }: { title: string; onClose: () => void; children: ReactNode }) {
  const titleId = useId();
  const dialogRef = useRef<HTMLDialogElement>(null);
  const close = useRef(onClose);
  close.current = onClose;

  useEffect(() => {
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    // When the opener goes with the action (a deleted channel's button), its region takes focus.
    const region = opener?.closest<HTMLElement>("nav, main, aside, header, [role='log']") ?? null;
    const dialog = dialogRef.current;
    if (!dialog) return;
    if (!dialog.open) dialog.showModal();
    const first = dialog.querySelector<HTMLElement>("input, textarea, select, button:not([data-close])");
    (first ?? dialog).focus();
    // Esc: the dialog stays until its owner closes it (a running action may keep it open).
    const onCancel = (event: Event) => {
      event.preventDefault();
      close.current();
    };
    dialog.addEventListener("cancel", onCancel);
    return () => {
      dialog.removeEventListener("cancel", onCancel);
      if (dialog.open) dialog.close();
      if (opener?.isConnected) opener.focus();
      else if (region?.isConnected) focusRegion(region);
    };
  }, []);

  function wrapTab(event: KeyboardEvent<HTMLDialogElement>) {
    if (event.key !== "Tab") return;
    const focusable = [...event.currentTarget.querySelectorAll<HTMLElement>(FOCUSABLE)].filter((el) => !el.hasAttribute("disabled"));
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

  return (
    // The backdrop is the <dialog> element itself outside its content box: a press there closes.
    // eslint-disable-next-line jsx-a11y/no-noninteractive-element-interactions
    <dialog
      ref={dialogRef}
      className="modal"
      aria-labelledby={titleId}
      onKeyDown={wrapTab}
      onMouseDown={(e) => e.target === e.currentTarget && close.current()}
    >
      <div className="modal-content">
        <h2 id={titleId}>{title}</h2>
        {children}
      </div>
    </dialog>
  );
}

/** Focuses a landmark that is not focusable by itself (without making it a tab stop). */
function focusRegion(region: HTMLElement) {
  if (region.tabIndex < 0 && !region.hasAttribute("tabindex")) region.setAttribute("tabindex", "-1");
  region.focus();
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

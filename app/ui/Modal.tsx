import { useEffect, useId, useRef, type KeyboardEvent, type ReactNode } from "react";
import { FormActions, FormError } from "~/ui/Form";
import { focusRegion } from "~/ui/focusRegion";
import { useBackCloses } from "~/ui/useBackCloses.client";

const FOCUSABLE = "input, textarea, select, button, a[href], [tabindex]:not([tabindex='-1'])";

/**
 * An accessible dialog: a native <dialog> opened with showModal(), so the page behind it is inert
 * for pointer, keyboard and screen readers. Named by its title; Esc, a phone's Back and the backdrop
 * close it (the backdrop not while a field the user typed in or chose differs from what it held when they
 * came to it: a press beside a form loses nothing);
 * focus moves inside, Tab wraps, and focus returns to the control that opened it.
 */
export function Modal({ title, onClose, children }: { title: string; onClose: () => void; children: ReactNode }) {
  const titleId = useId();
  const dialogRef = useRef<HTMLDialogElement>(null);
  const close = useRef(onClose);
  close.current = onClose;
  // each field the user came to, with what it held then; those they changed since
  const cameTo = useRef(new Map<Element, string>());
  const touched = useRef(new Set<Field>());
  useBackCloses(true, onClose);

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
      returnFocus(opener, region);
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
      onFocus={(e) => isField(e.target) && !cameTo.current.has(e.target) && cameTo.current.set(e.target, stateOf(e.target))}
      onInput={(e) => isField(e.target) && touched.current.add(e.target)}
      onMouseDown={(e) => e.target === e.currentTarget && !changed(touched.current, cameTo.current) && close.current()}
    >
      <div className="modal-content">
        <h2 id={titleId}>{title}</h2>
        {children}
      </div>
    </dialog>
  );
}

type Field = HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement;
const isField = (t: EventTarget): t is Field =>
  t instanceof HTMLInputElement || t instanceof HTMLTextAreaElement || t instanceof HTMLSelectElement;
const ticked = (f: Field): f is HTMLInputElement => f instanceof HTMLInputElement && (f.type === "checkbox" || f.type === "radio");
/** What a field holds: its text or choice, or whether it is ticked. */
const stateOf = (f: Field) => (ticked(f) ? String(f.checked) : f.value);

/**
 * Whether a field the user changed holds something else than when they came to it (one changed
 * without being focused: than empty, unticked). A field filled in by the page itself does not count; one
 * gone with a step of the dialog still does (what was typed there is the dialog's to keep).
 */
function changed(touched: ReadonlySet<Field>, cameTo: ReadonlyMap<Element, string>): boolean {
  return [...touched].some((f) => stateOf(f) !== (cameTo.get(f) ?? (ticked(f) ? "false" : "")));
}

/** How long a busy opener (disabled while the page takes in the action's result) is waited for. */
const OPENER_WAIT_MS = 10_000;

/**
 * Focus back where it was when the dialog opened: on its opener; once the opener is enabled again when
 * the action left it busy (a list reloading), unless the user moved on meanwhile; else on the opener's
 * region, or the page's main region when that is hidden too (a phone's closed drawer).
 */
function returnFocus(opener: HTMLElement | null, region: HTMLElement | null) {
  const fallback = () => [region, document.querySelector<HTMLElement>("main")].some((r) => r?.isConnected && focusRegion(r));
  if (!opener?.isConnected) return void fallback();
  if (opener.matches(":disabled")) {
    const observer = new MutationObserver(() => {
      if (opener.matches(":disabled")) return;
      observer.disconnect();
      if (document.activeElement === document.body || !document.activeElement) opener.focus();
    });
    observer.observe(opener, { attributes: true, attributeFilter: ["disabled"] });
    setTimeout(() => observer.disconnect(), OPENER_WAIT_MS);
    return;
  }
  opener.focus();
  if (document.activeElement !== opener) fallback();
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

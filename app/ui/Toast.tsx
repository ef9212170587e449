import { useCallback, useEffect, useState, type ReactNode } from "react";
import { createPortal } from "react-dom";

export interface ToastState {
  text: string;
  kind: "info" | "error";
  at: number;
}

const VISIBLE_MS = 6_000;
/** How long an error stays (twice an information's time). */
export const ERROR_VISIBLE_MS = VISIBLE_MS * 2;

const DOCK_ID = "toast-dock";

/** Where an open conversation shows its toasts: just above its composer, over no control. */
export function ToastDock() {
  return <div id={DOCK_ID} className="toast-dock" />;
}

/**
 * A short message in the open conversation's <ToastDock> (else at the top of the screen, under the
 * page's header); errors are announced as alerts.
 */
export function Toast({ toast, onDismiss }: { toast: ToastState; onDismiss: () => void }) {
  useEffect(() => {
    const timer = setTimeout(onDismiss, toast.kind === "error" ? ERROR_VISIBLE_MS : VISIBLE_MS);
    return () => clearTimeout(timer);
  }, [toast, onDismiss]);
  const shown = (
    <div className={`toast toast-${toast.kind}`} role={toast.kind === "error" ? "alert" : "status"}>
      <span>{toast.text}</span>
      <button type="button" className="icon-button" aria-label="Dismiss" onClick={onDismiss}>
        ×
      </button>
    </div>
  );
  return inToastDock(shown);
}

/** A toast's element, drawn in the open conversation's dock when there is one. */
export function inToastDock(toast: ReactNode) {
  const dock = document.getElementById(DOCK_ID);
  return dock ? createPortal(toast, dock) : toast;
}

/** The workspace's one toast: `notify` shows a text, a newer one replaces it. */
export function useToast() {
  const [toast, setToast] = useState<ToastState | null>(null);
  const notify = useCallback((text: string, kind: ToastState["kind"] = "info") => setToast({ text, kind, at: Date.now() }), []);
  const dismiss = useCallback(() => setToast(null), []);
  return { toast, notify, dismiss };
}

export type Notify = ReturnType<typeof useToast>["notify"];

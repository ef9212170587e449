import { useEffect } from "react";

export interface ToastState {
  text: string;
  kind: "info" | "error";
  at: number;
}

const VISIBLE_MS = 6_000;

/** A short message at the bottom of the screen; errors are announced as alerts. */
export function Toast({ toast, onDismiss }: { toast: ToastState; onDismiss: () => void }) {
  useEffect(() => {
    const timer = setTimeout(onDismiss, toast.kind === "error" ? VISIBLE_MS * 2 : VISIBLE_MS);
    return () => clearTimeout(timer);
  }, [toast, onDismiss]);
  return (
    <div className={`toast toast-${toast.kind}`} role={toast.kind === "error" ? "alert" : "status"}>
      <span>{toast.text}</span>
      <button type="button" className="icon-button" aria-label="Dismiss" onClick={onDismiss}>
        ×
      </button>
    </div>
  );
}

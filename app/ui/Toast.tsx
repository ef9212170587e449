import { useCallback, useEffect, useState } from "react";

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

/** The workspace's one toast: `notify` shows a text, a newer one replaces it. */
export function useToast() {
  const [toast, setToast] = useState<ToastState | null>(null);
  const notify = useCallback((text: string, kind: ToastState["kind"] = "info") => setToast({ text, kind, at: Date.now() }), []);
  const dismiss = useCallback(() => setToast(null), []);
  return { toast, notify, dismiss };
}

export type Notify = ReturnType<typeof useToast>["notify"];

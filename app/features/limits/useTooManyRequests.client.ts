import { useEffect } from "react";
import { ApiError, onTooManyRequests } from "~/lib/api.client";
import type { Notify } from "~/ui/Toast";

/**
 * A 429 anywhere in the workspace is a message, never an uncaught error (docs/decisions/0068-caps-per-account.md):
 * every "too many requests" answer shows the server's words in the workspace's toast, and a refused
 * request that nothing caught is not reported as the page's error.
 */
export function useTooManyRequests(notify: Notify) {
  useEffect(() => {
    const stop = onTooManyRequests((message) => notify(message, "error"));
    const uncaught = (event: PromiseRejectionEvent) => {
      if (event.reason instanceof ApiError && event.reason.status === 429) event.preventDefault();
    };
    window.addEventListener("unhandledrejection", uncaught);
    return () => {
      stop();
      window.removeEventListener("unhandledrejection", uncaught);
    };
  }, [notify]);
}

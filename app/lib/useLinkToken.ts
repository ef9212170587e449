import { useEffect, useRef } from "react";
import { setCsrfToken } from "~/lib/api.client";

/**
 * The pages an emailed link opens (/verify-email, /reset-password, /change-email, each #token=...):
 * once, with the page's CSRF token in place, hands `open` the link's token ("" when the link has
 * none) and takes the token out of the address bar and the history entry. The token stays in the
 * fragment, which browsers never send with the page request.
 */
export function useLinkToken(csrfToken: string, open: (token: string) => void) {
  const started = useRef(false);
  const latest = useRef(open);
  latest.current = open;
  useEffect(() => {
    if (started.current) return; // once, also when development mode runs effects twice
    started.current = true;
    setCsrfToken(csrfToken);
    const token = new URLSearchParams(window.location.hash.slice(1)).get("token") ?? "";
    window.history.replaceState(null, "", window.location.pathname);
    latest.current(token);
  }, [csrfToken]);
}

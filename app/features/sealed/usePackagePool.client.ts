import { useEffect } from "react";
import type { SessionUser } from "~/lib/session-user";

/**
 * Keeps this device's pool of MLS key packages filled (packages.client.ts), in the background, once
 * `delayMs` passed (KEY_PACKAGES_DELAY_SECONDS, 30 s by default) and the page is idle: it loads the MLS
 * code (about 35 KB gzip) and makes 11 packages, which the first load and the first seconds of use do
 * without. A conversation opened before then loads the same code anyway.
 */
export function usePackagePool(user: SessionUser, delayMs: number) {
  useEffect(() => {
    const run = () =>
      import("~/features/sealed/packages.client")
        .then((m) => m.ensurePool(user))
        .catch((error) => console.warn("This device's key packages could not be sent yet", error));
    const timer = setTimeout(() => (window.requestIdleCallback ? window.requestIdleCallback(() => void run()) : void run()), delayMs);
    return () => clearTimeout(timer);
  }, [user, delayMs]);
}

import { useEffect } from "react";
import type { SessionUser } from "~/lib/session-user";

/** How long after the workspace opens this device looks after its key packages (off the first load's path). */
const DELAY_MS = 3_000;

/** Keeps this device's pool of MLS key packages filled (packages.client.ts), in the background. */
export function usePackagePool(user: SessionUser) {
  useEffect(() => {
    const timer = setTimeout(() => {
      import("~/features/sealed/packages.client")
        .then((m) => m.ensurePool(user))
        .catch((error) => console.warn("This device's key packages could not be sent yet", error));
    }, DELAY_MS);
    return () => clearTimeout(timer);
  }, [user]);
}

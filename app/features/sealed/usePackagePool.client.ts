import { useEffect } from "react";
import type { SessionUser } from "~/lib/session-user";
import { keepPoolFilled } from "~/features/sealed/pool.client";

/**
 * Keeps this device's pool of MLS key packages filled (pool.client.ts, ADR 0047) right after the
 * workspace's first paint: a signed-in device is one a conversation can add with a Welcome within a
 * second. The check is one small request; the MLS code (about 35 KB gzip) loads only when the pool needs
 * new packages (a new device, a sign-in after a reset, a pool used up), never in the first load.
 */
export function usePackagePool(user: SessionUser) {
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    // After the next frame is painted: a task queued from the frame callback runs once it is on screen.
    const frame = requestAnimationFrame(() => {
      timer = setTimeout(() => {
        keepPoolFilled(user).catch((error) => console.warn("This device's key packages could not be sent yet", error));
      }, 0);
    });
    return () => {
      cancelAnimationFrame(frame);
      clearTimeout(timer);
    };
  }, [user]);
}

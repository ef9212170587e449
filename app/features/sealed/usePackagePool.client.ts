import { useEffect, useState } from "react";
import type { SessionUser } from "~/lib/session-user";
import { keepPoolFilled, poolNeedsPackages } from "~/conversation/mls/pool.client";
import { ApiError } from "~/lib/api.client";

/** With the pool low: how long after the first conversation is shown (or the workspace, with none opened) packages are made. */
const SHOWN_DELAY_MS = 1_000;
const UNSHOWN_DELAY_MS = 3_000;

/**
 * Keeps this device's pool of MLS key packages filled (pool.client.ts, ADR 0047). Right after the
 * workspace's first paint, one small request asks the server how many packages of this device it holds
 * (a sign-up sent them already). Only when they run low (a new device, a sign-in after a reset, a pool
 * used up) is the MLS code (about 33 KB gzip) loaded to make new ones: once the page is idle a second
 * after the first conversation is shown, or three seconds after the workspace with none opened, so
 * that it never slows the first screen.
 */
export function usePackagePool(user: SessionUser, shown: boolean, notify?: (text: string, kind: "error") => void) {
  const [low, setLow] = useState(false);

  useEffect(() => {
    let live = true;
    let timer: ReturnType<typeof setTimeout> | undefined;
    // After the next frame is painted: a task queued from the frame callback runs once it is on screen.
    const frame = requestAnimationFrame(() => {
      timer = setTimeout(() => {
        poolNeedsPackages(user.id).then(
          (needed) => live && setLow(needed),
          (error) => console.warn("This device's key packages could not be checked", error),
        );
      }, 0);
    });
    return () => {
      live = false;
      cancelAnimationFrame(frame);
      clearTimeout(timer);
    };
  }, [user]);

  useEffect(() => {
    if (!low) return;
    const refill = () => {
      setLow(false);
      keepPoolFilled(user).catch((error) => {
        // a cap of the account (20 devices, ADR 0068) says so; anything else is tried again next time
        if (error instanceof ApiError && error.status === 409) notify?.(error.message, "error");
        else console.warn("This device's key packages could not be sent yet", error);
      });
    };
    const timer = setTimeout(
      () => (typeof requestIdleCallback === "function" ? requestIdleCallback(refill, { timeout: 1_000 }) : refill()),
      shown ? SHOWN_DELAY_MS : UNSHOWN_DELAY_MS,
    );
    return () => clearTimeout(timer);
  }, [user, low, shown, notify]);
}

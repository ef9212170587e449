/**
 * This device's pool of MLS key packages kept filled (ADR 0047), without the MLS code: the server says
 * how many packages of this device it holds, and only when they run low or grow old is packages.client.ts
 * (and ts-mls with it) loaded to make and send new ones. Run during sign-up, before the workspace is
 * shown, and right after the workspace's first paint on every page load (sign-in, reload, a reset), so
 * that whoever starts a conversation with this user a second later finds a package of this device.
 */
import { api } from "~/lib/api.client";
import type { SessionUser } from "~/lib/session-user";
import { deviceId } from "./device-id.client";

export const LOW = 4;
export const MAX_AGE_DAYS = 30;
const DAY_MS = 24 * 60 * 60 * 1000;

export type PoolOutcome = "kept" | "refilled";

/** Whether the server holds too few (or too old) packages of this device (one small request, no MLS code). */
export async function poolNeedsPackages(userId: string, now = Date.now()): Promise<boolean> {
  const { left, oldest } = await api<{ left: number; oldest: string | null }>(`/api/key-packages?device=${deviceId(userId)}`);
  const stale = oldest !== null && now - Date.parse(oldest.replace(" ", "T")) > (MAX_AGE_DAYS - 2) * DAY_MS;
  return left < LOW || stale;
}

let running: { userId: string; work: Promise<PoolOutcome> } | null = null;

/** Refills or renews the pool when it runs low or grows old; nothing otherwise. One run at a time per page. */
export function keepPoolFilled(user: SessionUser, now = Date.now()): Promise<PoolOutcome> {
  if (running?.userId === user.id) return running.work;
  const work = (async (): Promise<PoolOutcome> => {
    if (!(await poolNeedsPackages(user.id, now))) return "kept";
    const { refillPool } = await import("./packages.client");
    // (the private halves of earlier packages are kept a little longer than the server keeps the packages)
    await refillPool(user, now, (MAX_AGE_DAYS + 5) * DAY_MS);
    return "refilled";
  })();
  const current = { userId: user.id, work };
  running = current;
  void work
    .catch(() => undefined)
    .finally(() => {
      if (running === current) running = null;
    });
  return work;
}

/** This browser's MLS device id for a user (ADR 0015), without the MLS code: the key-package pool check needs only it. */
import { randomId } from "~/crypto";

const DEVICE_ENTRY = (userId: string) => `chatcrypt.sealed-device.${userId}`;

/** This browser's device id for the user (kept in localStorage; a new one after the storage is cleared). */
export function deviceId(userId: string): string {
  let id = localStorage.getItem(DEVICE_ENTRY(userId));
  if (!id) {
    id = randomId(16);
    localStorage.setItem(DEVICE_ENTRY(userId), id);
  }
  return id;
}

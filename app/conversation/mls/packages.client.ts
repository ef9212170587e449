/**
 * This device's pool of MLS key packages on the delivery service (ADR 19), so that a member can add it
 * to a direct conversation with a Welcome: POOL one-time packages and one last-resort package, refilled
 * when fewer than LOW are left and replaced when the oldest is over MAX_AGE_DAYS old (the server drops
 * one-time packages older than that on each upload). The private halves stay on this device, sealed
 * under the user's vault key, until a Welcome made for one of them arrives. Loaded (with ts-mls) only when
 * pool.client.ts finds the pool low or old.
 */
import { base64UrlEncode } from "~/crypto/bytes";
import { api } from "~/lib/api.client";
import type { SessionUser } from "~/lib/session-user";
import { openJson, sealJson } from "~/conversation/keyring/vault.client";
import { loadPackage, storePackage, type StoredPackage } from "./device";
import { deviceId, newDeviceKeyPackage } from "./identity.client";
import { encodeKeyPackage, type DeviceKeyPackage } from "./mls";

export const POOL = 10;

type Kept = StoredPackage & { made: number; lastResort?: boolean };
const entry = (userId: string) => `chatcrypt.mls-packages.${userId}`;
const aad = (userId: string, device: string) => `chatcrypt:mls-packages:v1:${userId}:${device}`;

async function loadKept(userId: string): Promise<Kept[]> {
  const sealed = localStorage.getItem(entry(userId));
  if (!sealed) return [];
  try {
    return (await openJson(userId, "sealed", sealed, aad(userId, deviceId(userId)))) as Kept[];
  } catch {
    return [];
  }
}

async function saveKept(userId: string, kept: Kept[]) {
  localStorage.setItem(entry(userId), await sealJson(userId, "sealed", kept, aad(userId, deviceId(userId))));
}

/** The private halves this device keeps, to open a Welcome made for one of them. */
export async function ownPackages(userId: string): Promise<{ package: DeviceKeyPackage; kept: Kept }[]> {
  return (await loadKept(userId)).map((kept) => ({ package: loadPackage(kept), kept }));
}

/** A one-time package is used once: forgotten after it opened a Welcome (a last-resort one stays). */
export async function usedPackage(userId: string, used: Kept) {
  if (used.lastResort) return;
  await saveKept(
    userId,
    (await loadKept(userId)).filter((k) => k.public !== used.public),
  );
}

/** Makes POOL one-time packages and a last-resort one, keeps their private halves, then sends them (pool.client.ts decides when). */
export async function refillPool(user: SessionUser, now: number, keepForMs: number): Promise<void> {
  const device = deviceId(user.id);
  const made = await Promise.all(Array.from({ length: POOL + 1 }, () => newDeviceKeyPackage(user)));
  const [lastResort, ...oneTime] = made;
  const keep = (p: DeviceKeyPackage, last = false): Kept => ({ ...storePackage(p), made: now, ...(last ? { lastResort: true } : {}) });
  // Kept first (a Welcome may come for any package the server holds), then sent.
  const previous = (await loadKept(user.id)).filter((k) => now - k.made < keepForMs);
  await saveKept(user.id, [...previous.slice(-4 * POOL), ...oneTime.map((p) => keep(p)), keep(lastResort, true)]);
  await api("/api/key-packages", {
    device,
    oneTime: oneTime.map((p) => base64UrlEncode(encodeKeyPackage(p))),
    lastResort: base64UrlEncode(encodeKeyPackage(lastResort)),
  });
}

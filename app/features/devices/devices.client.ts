import type { DeviceSession } from "~/features/devices/types";
import { api } from "~/lib/api.client";

/** The account's signed-in sessions, this device's first. A 401 here means this session ended (api.client.ts tells the page). */
export async function listDevices(): Promise<DeviceSession[]> {
  return (await api<{ sessions: DeviceSession[] }>("/api/auth/sessions")).sessions;
}

/** Signs another device out at once. */
export async function signOutDevice(id: string): Promise<void> {
  await api(`/api/auth/sessions/${encodeURIComponent(id)}/revoke`, {});
}

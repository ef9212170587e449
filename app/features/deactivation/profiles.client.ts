import { api } from "~/lib/api.client";
import type { PublicProfile } from "~/conversation/senders/types";

/** Of these users, those an administrator deactivated (ADR 0056), with their names. */
export async function deactivatedAmong(ids: string[]): Promise<{ id: string; username: string }[]> {
  if (ids.length === 0) return [];
  const { profiles } = await api<{ profiles: PublicProfile[] }>(`/api/profiles?ids=${ids.slice(0, 100).map(encodeURIComponent).join(",")}`);
  return profiles.filter((p) => p.deactivated);
}

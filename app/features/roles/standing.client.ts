/**
 * The page's copy of the user's role and whether they may create channels (docs/decisions/0095-standing-live.md):
 * the session's values until the live stream says an administrator changed either, then as the server
 * answers GET /api/account/standing. The menu's "Admin console", "Create a channel" and a sealed
 * channel's "Reset" follow it without a reload; the server enforces the same rules whatever the page shows.
 */
import { useSyncExternalStore } from "react";
import { api } from "~/lib/api.client";
import { emit, on } from "~/lib/events";
import type { SessionUser } from "~/lib/session-user";
import type { Standing } from "~/features/roles/roles";

/** The latest answer, for the user it was read for. */
let read: (Standing & { userId: string }) | null = null;
let reading: Promise<void> | null = null;
let again = false;

/** Reads the standing again (one request at a time; a change announced meanwhile reads once more after it). */
export function standingChanged(userId: string): Promise<void> {
  if (reading) {
    again = true;
    return reading;
  }
  reading = api<Standing>("/api/account/standing")
    .then((answer) => {
      read = { userId, role: answer.role, canCreateChannels: answer.canCreateChannels };
      emit("standing:read");
    })
    .catch((error: unknown) => console.warn("Your role could not be read again", error))
    .finally(() => {
      reading = null;
      if (again) {
        again = false;
        void standingChanged(userId);
      }
    });
  return reading;
}

/** The standing last read for the user, or null when none was read on this page. */
export const standingRead = (userId: string): Standing | null => (read?.userId === userId ? read : null);

const subscribe = (notify: () => void) => on("standing:read", notify);

/** The user's role and "New channel" as last read (the session's until the live stream says they changed). */
export function useStanding(user: SessionUser): Standing {
  const snapshot = () => (read?.userId === user.id ? read : user);
  const current = useSyncExternalStore(subscribe, snapshot, () => user);
  return { role: current.role, canCreateChannels: current.canCreateChannels };
}

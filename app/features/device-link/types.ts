import type { SessionUser } from "~/lib/session-user";

/** A new device's request as the signed-in device lists it. */
export interface PendingLink {
  id: string;
  deviceKey: string;
  /** The key of the device that answers it ("" until one does). */
  approverKey: string;
  /** "Chrome on Linux", as Account > Devices shows it. */
  agent: string;
  expires: string;
}

export interface StartedLink {
  id: string;
  secret: string;
  expires: string;
}

export type LinkState =
  | { state: "pending"; approverKey: string }
  | { state: "denied" }
  | { state: "expired" }
  | { state: "approved"; sealed: string; approverKey: string; user: SessionUser | null };

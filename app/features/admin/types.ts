import type { WhoCanCreateChannels } from "~/features/roles/workspace-settings.server";
import type { Role } from "~/features/roles/roles";

/** One account as the People section shows it (pb_hooks/lib/admin_console.js listPeople). */
export interface AdminPerson {
  id: string;
  email: string;
  /** The address is the one typed at sign-up, its link not opened yet (ADR 82). */
  emailPending?: boolean;
  username: string;
  role: Role;
  deactivated: boolean;
  /** When any of its sessions was last used (ISO 8601), "" when never. */
  lastSeen: string;
  /** Signed-in sessions (Account > Devices). */
  devices: number;
  /** Channels (not direct conversations) it is a member of. */
  channels: number;
  /** Signs in with single sign-on (created through it, or linked to it). */
  sso?: boolean;
}

/** One channel or conversation as the Channels section shows it: a name for classic channels only. */
export interface AdminChannel {
  id: string;
  kind: "channel" | "sealed" | "direct";
  name: string;
  members: number;
  /** Encrypted messages and attachments. */
  bytes: number;
}

export interface MailStatus {
  configured: boolean;
  host: string;
  port: number;
}

export const WHO_CAN_CREATE = ["everyone", "admins"] as const satisfies readonly WhoCanCreateChannels[];
export type WhoCanCreate = WhoCanCreateChannels;

/** What every console section gets: who is looking (the server checks again on every call). */
export interface AdminSectionProps {
  viewer: { id: string; role: string };
  workspace: { whoCanCreateChannels: WhoCanCreate };
}

/** Invites with limits (docs/decisions/0057-invites-and-bans.md), as the pages get them. */

export const EXPIRY_CHOICES = [
  { value: "1d", label: "1 day" },
  { value: "7d", label: "7 days" },
  { value: "30d", label: "30 days" },
  { value: "never", label: "Never" },
] as const;
export type Expiry = (typeof EXPIRY_CHOICES)[number]["value"];

export const USES_CHOICES = [
  { value: 1, label: "1 use" },
  { value: 10, label: "10 uses" },
  { value: 0, label: "Unlimited" },
] as const;
export type Uses = (typeof USES_CHOICES)[number]["value"];

/** What a new invite allows, as the invite dialog asks for it. */
export interface InviteLimits {
  expires: Expiry;
  maxUses: Uses;
}

export type InviteStatus = "valid" | "expired" | "revoked" | "used" | "removed";

/**
 * A used-up invite's words on the sign-in screen: whoever used it (on another device) opens the channel
 * with it once signed in, so it is kept until then (landing.client.ts).
 */
export const INVITE_USED_SIGNED_OUT = "This invite has already been used. If you joined with it, sign in to open the channel.";

/** What a landing page says about an invite that cannot be used (and nothing is joined). */
export const INVITE_REFUSALS: Record<Exclude<InviteStatus, "valid">, string> = {
  expired: "This invite has expired.",
  revoked: "This invite was revoked.",
  used: "This invite has already been used.",
  removed: "You were removed from this channel.",
};

/** An invite in a listing (a channel's members panel, the admin console). */
export interface InviteSummary {
  id: string;
  channel_id: string;
  /** Empty for a sealed channel: its name is not shown in listings. */
  channel_name: string;
  sealed: boolean;
  created_by: string;
  created_by_name: string;
  created: string;
  /** Empty: never. */
  expires: string;
  /** 0: unlimited. */
  max_uses: number;
  uses: number;
  status: Exclude<InviteStatus, "removed">;
}

/** What the invite's landing page learns from its id. */
export interface InvitePreview {
  status: InviteStatus;
  channel_id: string;
  sealed: boolean;
  /** Empty for a sealed channel: its name travels only in the link, sealed. */
  name: string;
  inviter: string;
  /** The reader is in the channel already (the link opens it, whatever its status). */
  member?: boolean;
}

export interface ChannelBan {
  user_id: string;
  username: string;
  banned_by: string;
  created: string;
}

/** What the caller may manage in a channel ("" : nothing). */
export interface ChannelAccess {
  manage: "" | "creator" | "admin" | "workspace";
  name_admins?: boolean;
  admins?: string[];
  bans?: ChannelBan[];
  invites?: InviteSummary[];
}

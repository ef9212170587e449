import { api, ApiError } from "~/lib/api.client";
import type { PendingInvite } from "~/lib/storage.client";
import { invitedChannelName } from "~/features/channels/channels.client";
import { askToJoin, sayRefused } from "~/features/invites/ask.client";
import { INVITE_REFUSALS, type InvitePreview } from "~/features/invites/types";

/** What the server says about the invite a link names; null for an older link, one it does not know, or no answer. */
export async function previewInvite(inviteId: string | undefined): Promise<InvitePreview | null> {
  if (!inviteId) return null;
  try {
    return await api<InvitePreview>(`/api/invites/${inviteId}`);
  } catch (error) {
    if (!(error instanceof ApiError)) console.warn("The invite could not be checked", error);
    return null;
  }
}

/** Why an invite cannot be used ("This invite has expired." ...), or null when it can (or cannot be checked). */
export const refusalOf = (preview: InvitePreview | null) =>
  preview && preview.status !== "valid" ? INVITE_REFUSALS[preview.status] : null;

/**
 * Whether to join through a pending invite: one opened by a member of its channel opens it; a refused
 * one says why and is not used; one opened by
 * someone already signed in asks "Join #x? Invited by NAME" first (a sealed channel's name is what the
 * link carries, or "a sealed channel"). Someone who signed in or up from the invite's page joins.
 */
export async function mayJoin(invite: PendingInvite): Promise<boolean> {
  const preview = await previewInvite(invite.inviteId);
  // (someone in the channel already, who used the link on another device: it opens the channel)
  if (preview?.member) return true;
  const refused = refusalOf(preview);
  if (refused) {
    await sayRefused(refused);
    return false;
  }
  if (!invite.ask) return true;
  const carried = await invitedChannelName(invite);
  const name = preview?.name || carried;
  const where = name ? `#${name}` : preview?.sealed ? "a sealed channel" : "this channel";
  return askToJoin(`Join ${where}?${preview?.inviter ? ` Invited by ${preview.inviter}` : ""}`);
}

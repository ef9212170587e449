import { UUID_PATTERN } from "~/features/channels/limits";

export interface InviteParams {
  channelId: string;
  encryptedPassword: string;
  /** The channel's name sealed with the same key (links made since names travel with them). */
  encryptedName?: string;
  /** The invite record the link names (docs/decisions/0057-invites-and-bans.md); absent in older links. */
  inviteId?: string;
}

const INVITE_ID = /^[a-z0-9]{15}$/;

/**
 * Reads an invite from an address: the fragment form `/?invite=<channel id>&id=<invite id>#key=<secret>`
 * (the secret never reaches a server; older links have no invite id) and the older query form
 * `/?invite=<channel id>&key=<secret>`.
 */
export function parseInvite(href: string): InviteParams | null {
  let url: URL;
  try {
    url = new URL(href);
  } catch {
    return null;
  }
  const channelId = (url.searchParams.get("invite") ?? "").trim().toLowerCase();
  const key = new URLSearchParams(url.hash.replace(/^#/, "")).get("key") ?? url.searchParams.get("key");
  if (!channelId || !key || !UUID_PATTERN.test(channelId)) return null;
  const name = new URLSearchParams(url.hash.replace(/^#/, "")).get("name");
  const inviteId = url.searchParams.get("id") ?? "";
  return {
    channelId,
    encryptedPassword: key,
    ...(name && name.length <= 2000 ? { encryptedName: name } : {}),
    ...(INVITE_ID.test(inviteId) ? { inviteId } : {}),
  };
}

export function buildInviteLink(
  origin: string,
  channelId: string,
  encryptedPassword: string,
  encryptedName?: string,
  inviteId?: string,
): string {
  const name = encryptedName ? `&name=${encodeURIComponent(encryptedName)}` : "";
  const id = inviteId ? `&id=${encodeURIComponent(inviteId)}` : "";
  return `${origin}/?invite=${encodeURIComponent(channelId)}${id}#key=${encodeURIComponent(encryptedPassword)}${name}`;
}

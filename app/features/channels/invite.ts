import { UUID_PATTERN } from "~/features/channels/limits";

export interface InviteParams {
  channelId: string;
  encryptedPassword: string;
  /** The channel's name sealed with the same key (links made since names travel with them). */
  encryptedName?: string;
}

/**
 * Reads an invite from an address: the fragment form `/?invite=<id>#key=<secret>` (the secret never
 * reaches a server) and the older query form `/?invite=<id>&key=<secret>`.
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
  return name && name.length <= 2000 ? { channelId, encryptedPassword: key, encryptedName: name } : { channelId, encryptedPassword: key };
}

export function buildInviteLink(origin: string, channelId: string, encryptedPassword: string, encryptedName?: string): string {
  const name = encryptedName ? `&name=${encodeURIComponent(encryptedName)}` : "";
  return `${origin}/?invite=${encodeURIComponent(channelId)}#key=${encodeURIComponent(encryptedPassword)}${name}`;
}

import { UUID_PATTERN } from "~/features/channels/validation";

export interface InviteParams {
  channelId: string;
  encryptedPassword: string;
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
  return { channelId, encryptedPassword: key };
}

export function buildInviteLink(origin: string, channelId: string, encryptedPassword: string): string {
  return `${origin}/?invite=${encodeURIComponent(channelId)}#key=${encodeURIComponent(encryptedPassword)}`;
}

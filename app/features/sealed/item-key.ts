import { importItemKey } from "~/crypto";
import { channelKey } from "~/features/channels/channels.client";
import type { Channel } from "~/features/channels/types";

/**
 * The key of a message's files and link previews: a classic channel's key, or in a sealed channel the
 * message's own random key, which travels inside its MLS-encrypted body (null when it has none).
 */
export function contentKey(channel: Channel, itemKey?: string): Promise<CryptoKey | null> {
  if (!channel.sealed) return channelKey(channel);
  return itemKey ? importItemKey(itemKey) : Promise.resolve(null);
}

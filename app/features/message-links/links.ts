import { HOME, pathOf } from "~/features/address/address";

/**
 * Links to one message: `<origin>/c/<conversation id>/m/<message id>`, the conversation's own address
 * with the message (ADR 0061). A link opens the conversation at the message for a member; anyone else
 * reads only "This conversation is not available to you.". The earlier form,
 * `<origin>/#message=<conversation id>/<message id>/<time>`, still opens: the page moves it to the new
 * address before anything else.
 */
export interface MessageLink {
  channelId: string;
  messageId: string;
}

const PREFIX = "#message=";
const CHANNEL = /^[A-Za-z0-9-]{1,64}$/;
const MESSAGE = /^[a-z0-9]{15}$/;

export function messageLink(origin: string, link: MessageLink): string {
  return origin + pathOf({ ...HOME, conversationId: link.channelId, message: link.messageId });
}

/** The message an address of the earlier form (in its fragment) links to, or null. */
export function parseMessageLink(href: string): MessageLink | null {
  const hash = new URL(href).hash;
  if (!hash.startsWith(PREFIX)) return null;
  const [channelId, messageId, time] = hash
    .slice(PREFIX.length)
    .split("/")
    .map((part) => decodeURIComponent(part));
  const ms = Number(time);
  if (!CHANNEL.test(channelId ?? "") || !MESSAGE.test(messageId ?? "") || !Number.isFinite(ms) || ms <= 0) return null;
  return { channelId, messageId };
}

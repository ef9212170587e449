/**
 * Links to one message: `<origin>/#message=<conversation id>/<message id>/<time>`. The fragment never
 * reaches a server (not ours, not a proxy's log); the time lets the page load history back to the
 * message in one go. A link opens the conversation at the message for a member, and says only "You
 * are not a member of this channel" to anyone else.
 */
export interface MessageLink {
  channelId: string;
  messageId: string;
  created: string;
}

const PREFIX = "#message=";
const CHANNEL = /^[A-Za-z0-9-]{1,64}$/;
const MESSAGE = /^[a-z0-9]{15}$/;

export function messageLink(origin: string, link: MessageLink): string {
  return `${origin}/${PREFIX}${encodeURIComponent(link.channelId)}/${link.messageId}/${Date.parse(link.created.replace(" ", "T"))}`;
}

/** The message a page address links to, or null. */
export function parseMessageLink(href: string): MessageLink | null {
  const hash = new URL(href).hash;
  if (!hash.startsWith(PREFIX)) return null;
  const [channelId, messageId, time] = hash
    .slice(PREFIX.length)
    .split("/")
    .map((part) => decodeURIComponent(part));
  const ms = Number(time);
  if (!CHANNEL.test(channelId ?? "") || !MESSAGE.test(messageId ?? "") || !Number.isFinite(ms) || ms <= 0) return null;
  return { channelId, messageId, created: new Date(ms).toISOString().replace("T", " ") };
}

/** Pure helpers for link previews: which URL of a message is previewed, and the associated data of its fields. */

// Associated data binds each encrypted field to its message and name, so the server cannot swap them around.
export const previewAad = (channelId: string, messageId: string, field: string) =>
  `chatcrypt:preview:v1:${channelId}:${messageId}:${field}`;

/** The first http(s) URL in a message, as the spec's link preview uses. */
export function firstUrl(text: string): string | null {
  const match = /\bhttps?:\/\/[^\s<>"']+/i.exec(text);
  if (!match) return null;
  return match[0].replace(/[.,;:!?)\]}]+$/, "");
}

/**
 * What may be sent to the server for a preview: the URL without its fragment (fragments carry secrets,
 * such as our own invite keys), and nothing at all for an invite link to this app.
 */
export function previewableUrl(url: string, appOrigin: string): string | null {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return null;
  }
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:") return null;
  if (parsed.origin === appOrigin || parsed.searchParams.has("invite")) return null;
  parsed.hash = "";
  return parsed.toString();
}

/** The URL a message's preview must carry: the previewable form of its first URL, or null for none. */
export function expectedPreviewUrl(text: string, appOrigin: string): string | null {
  const found = firstUrl(text);
  return found ? previewableUrl(found, appOrigin) : null;
}

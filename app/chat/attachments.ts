/** Pure helpers for attachments and link previews: labels, kinds, paths and associated data. */

export type AttachmentKind = "image" | "audio" | "file";

export const ACCEPTED_FILE_TYPES = "image/*,.pdf,.txt,.zip";

export function formatKb(bytes: number): string {
  return `${(bytes / 1024).toFixed(1)} KB`;
}

export function attachmentKind(type: string): AttachmentKind {
  if (/^image\/(png|jpe?g|gif|webp|avif|bmp)$/i.test(type)) return "image";
  if (/^audio\//i.test(type)) return "audio";
  return "file";
}

export function fileExtension(name: string): string {
  const match = /\.([A-Za-z0-9]{1,10})$/.exec(name.trim());
  return match ? match[1].toLowerCase() : "bin";
}

/** True for what the file picker accepts: images, .pdf, .txt, .zip (spec §5). */
export function isAcceptedFile(name: string, type: string): boolean {
  return type.startsWith("image/") || ["pdf", "txt", "zip"].includes(fileExtension(name));
}

export const storagePathFor = (userId: string, channelId: string, uuid: string, ext: string) => `${userId}/${channelId}/${uuid}.${ext}`;

// Associated data binds each ciphertext to its place, so the server cannot swap files or fields around.
export const fileAad = (channelId: string, storagePath: string) => `chatcrypt:file:v1:${channelId}:${storagePath}`;
export const fileNameAad = (channelId: string, storagePath: string) => `chatcrypt:file-name:v1:${channelId}:${storagePath}`;
export const previewAad = (channelId: string, messageId: string, field: string) => `chatcrypt:preview:v1:${channelId}:${messageId}:${field}`;

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

export function formatElapsed(ms: number): string {
  const total = Math.max(0, Math.floor(ms / 1000));
  return `${Math.floor(total / 60)}:${String(total % 60).padStart(2, "0")}`;
}

/** webm where the browser can record it, otherwise ogg (spec §9). */
export function pickAudioType(isSupported: (type: string) => boolean): { mimeType: string; ext: "webm" | "ogg" } {
  for (const mimeType of ["audio/webm;codecs=opus", "audio/webm"]) if (isSupported(mimeType)) return { mimeType, ext: "webm" };
  return { mimeType: isSupported("audio/ogg;codecs=opus") ? "audio/ogg;codecs=opus" : "audio/ogg", ext: "ogg" };
}

/** Pure helpers for attachments: labels, kinds, paths and associated data. */

export type AttachmentKind = "image" | "audio" | "file";

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

export const storagePathFor = (userId: string, channelId: string, uuid: string, ext: string) => `${userId}/${channelId}/${uuid}.${ext}`;

/** A file's storage path must sit in its sender's folder of its channel: the server cannot move it elsewhere. */
export const isStoragePathOf = (storagePath: string, senderId: string, channelId: string) =>
  storagePath.startsWith(`${senderId}/${channelId}/`) && !storagePath.slice(senderId.length + channelId.length + 2).includes("/");

/** Where a file belongs: its channel, the message that carries it, that message's sender, and its path. */
export interface FilePlace {
  channelId: string;
  messageId: string;
  senderId: string;
  storagePath: string;
}

// Associated data binds each ciphertext to its place, so the server cannot swap files or fields around
// or move a file to another message.
const place = (p: FilePlace) => `${p.channelId}:${p.senderId}:${p.messageId}:${p.storagePath}`;
export const fileAad = (p: FilePlace) => `chatcrypt:file:v2:${place(p)}`;
export const fileNameAad = (p: FilePlace) => `chatcrypt:file-name:v2:${place(p)}`;

export function formatElapsed(ms: number): string {
  const total = Math.max(0, Math.floor(ms / 1000));
  return `${Math.floor(total / 60)}:${String(total % 60).padStart(2, "0")}`;
}

/** webm where the browser can record it, otherwise ogg (spec §9). */
export function pickAudioType(isSupported: (type: string) => boolean): { mimeType: string; ext: "webm" | "ogg" } {
  for (const mimeType of ["audio/webm;codecs=opus", "audio/webm"]) if (isSupported(mimeType)) return { mimeType, ext: "webm" };
  return { mimeType: isSupported("audio/ogg;codecs=opus") ? "audio/ogg;codecs=opus" : "audio/ogg", ext: "ogg" };
}

/** The name a file is shown by: a recorded voice message is "Voice message", other files their own name. */
export function shownName(file: { name: string; kind?: string }): string {
  return file.kind === "audio" && /^voice-message-[0-9T-]+\.(webm|ogg)$/.test(file.name) ? "Voice message" : file.name;
}

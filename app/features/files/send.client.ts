import { encryptBytes, encryptText, randomUuid, sha256Bytes } from "~/crypto";
import { ApiError } from "~/lib/api.client";
import { bytesBlob } from "~/lib/blob-url.client";
import { ChatError } from "~/lib/errors";
import type { SessionUser } from "~/lib/session-user";
import { uploadWithProgress } from "~/lib/upload.client";
import type { Channel } from "~/conversation/channels/types";
import { conversationOf } from "~/conversation/conversation.client";
import { fileAad, fileExtension, fileNameAad, storagePathFor, type FilePlace } from "~/conversation/files/attachments";
import { decryptAttachments } from "~/conversation/files/decrypt";
import type { FileCarrier, PostCarrier } from "~/features/files/files.client";
import type { EncryptedAttachment } from "~/conversation/files/types";

// (loaded with the first file or audio message sent: useUploads.client.ts)
export class UploadError extends ChatError {}

/** A file's message the server has, whose file did not go up: a retry uploads to it (not a second message). */
export interface Posted<M> {
  message: M;
  itemKey?: string;
}

/** The upload failed after the file's message was posted: the retry's starting point. */
export class UploadNotFinished<M> extends UploadError {
  constructor(
    message: string,
    readonly posted: Posted<M>,
    /** The server refused the file itself (too large, a type not allowed): trying again changes nothing. */
    readonly refused: boolean,
  ) {
    super(message);
  }
}

/**
 * Sends a file (or an audio recording): an encrypted, signed message that carries the file's SHA-256
 * first, then the encrypted file bound to that message, its sender and its path. The name is encrypted
 * too; the server learns only size and type.
 */
export async function sendFile<M extends FileCarrier>(
  user: SessionUser,
  channel: Channel,
  file: File,
  options: { limitBytes: number; onProgress?: (fraction: number) => void; failure: string; post: PostCarrier<M>; posted?: Posted<M> },
): Promise<M> {
  if (file.size > options.limitBytes) {
    throw new UploadError(`The file is larger than the limit of ${Math.round(options.limitBytes / (1024 * 1024))} MB.`);
  }
  // Where messages have keys of their own (MLS), the file's key is carried inside its message.
  const conversation = conversationOf(user, channel);
  const itemKey = options.posted ? options.posted.itemKey : await conversation.newItemKey();
  const key = await conversation.contentKey(itemKey);
  if (!key) throw new UploadError("Channel password not found");
  const bytes = new Uint8Array(await file.arrayBuffer());
  const hash = await sha256Bytes(bytes);
  let message: M;
  try {
    message = options.posted ? options.posted.message : await options.post(channel, hash, itemKey);
  } catch (error) {
    throw new UploadError(error instanceof ChatError ? error.message : options.failure);
  }
  const place: FilePlace = {
    channelId: channel.id,
    messageId: message.id,
    senderId: user.id,
    storagePath: storagePathFor(user.id, channel.id, randomUuid(), fileExtension(file.name)),
  };
  const [ciphertext, encryptedName] = await Promise.all([
    encryptBytes(key, bytes, fileAad(place)),
    encryptText(key, file.name, fileNameAad(place)),
  ]);
  const form = new FormData();
  form.set("messageId", message.id);
  form.set("fileName", encryptedName);
  form.set("fileSize", String(file.size));
  form.set("fileType", file.type);
  form.set("storagePath", place.storagePath);
  form.set("file", bytesBlob(ciphertext, "application/octet-stream"), "encrypted.bin");
  let attachment: EncryptedAttachment;
  try {
    ({ attachment } = await uploadWithProgress<{ attachment: EncryptedAttachment }>(
      `/api/channels/${channel.id}/attachments`,
      form,
      options.onProgress,
    ));
  } catch (error) {
    const reason = error instanceof ApiError && error.status === 413 ? ` ${error.message}` : "";
    const refused = error instanceof ApiError && error.status >= 400 && error.status < 500 && error.status !== 408 && error.status !== 429;
    throw new UploadNotFinished(`${options.failure}${reason ? `:${reason}` : ""}`, { message, itemKey }, refused);
  }
  message.attachments = await decryptAttachments(
    key,
    { id: message.id, channelId: channel.id, senderId: user.id, fileHashes: [hash], itemKey },
    [attachment],
  );
  return message;
}

import type { Annotation } from "~/conversation/messages/annotations";
import type { DecryptedMessage } from "~/features/messages/messages.client";
import type { SearchDoc } from "~/features/search/engine";

/** What the index keeps of a decrypted message: its text, file names and link-preview titles. */
export const toDoc = (m: DecryptedMessage): SearchDoc => ({
  id: m.id,
  channelId: m.channelId,
  senderId: m.senderId,
  sender: m.senderUsername,
  created: m.created,
  text: m.text,
  extra: [...m.attachments.map((a) => a.name), ...m.previews.map((p) => p.title)].filter(Boolean).join("\n"),
  hasFile: m.fileHashes.length > 0 || m.attachments.length > 0,
  ...(m.threadOnly && m.thread ? { thread: m.thread } : {}),
});

/** Edits in the order they were made (the latest one's text wins). */
export const editsOf = (annotations: readonly Annotation[]) =>
  annotations.filter((a) => a.kind === "edit" && a.text !== undefined).sort((a, b) => (a.created < b.created ? -1 : 1));

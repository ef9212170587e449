import { downloadText } from "~/lib/download.client";
import type { DecryptedMessage } from "~/features/messages/messages.client";
import { exportFileName, formatExport } from "~/features/export/export";

/** Saves the open channel's decrypted messages as a text file (spec §9 "Save Chat"). */
export function saveChat(channelName: string, messages: readonly DecryptedMessage[]) {
  const now = new Date();
  const text = formatExport(
    channelName,
    messages.map((m) => ({ created: m.created, sender: m.senderUsername, text: m.text, attachments: m.attachments.map((a) => a.name) })),
    now,
  );
  downloadText(text, exportFileName(channelName, now));
}

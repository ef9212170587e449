import { downloadText } from "~/lib/download.client";
import type { DecryptedMessage } from "~/features/messages/messages.client";
import { exportFileName, formatExport } from "~/features/export/export";
import { policyLine } from "~/features/retention/retention";
import { retentionDaysOf } from "~/features/retention/retention.client";

/** Saves the open channel's decrypted messages as a text file (spec §9 "Save Chat"), with the retention policy that applied. */
export function saveChat(channelName: string, messages: readonly DecryptedMessage[], channelId: string) {
  const now = new Date();
  const days = retentionDaysOf(channelId);
  const text = formatExport(
    channelName,
    messages.map((m) => ({ created: m.created, sender: m.senderUsername, text: m.text, attachments: m.attachments.map((a) => a.name) })),
    now,
    { retention: days === null ? undefined : policyLine(days) },
  );
  downloadText(text, exportFileName(channelName, now));
}

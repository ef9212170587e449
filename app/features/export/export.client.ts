import { downloadText } from "~/lib/download.client";
import type { SessionUser } from "~/lib/session-user";
import type { Channel } from "~/conversation/channels/types";
import { exportFileName } from "~/features/export/export";
import { conversationText } from "~/features/export/conversations.client";
import { policyLine } from "~/features/retention/retention";
import { retentionDaysOf } from "~/features/retention/retention.client";
import { ChatError } from "~/lib/errors";

/**
 * Saves the open conversation as a text file (spec §9 "Save Chat"): all of it, read page by page and
 * opened on this device (not only the messages the list has loaded), edits applied, with the retention
 * policy that applied.
 */
export async function saveChat(user: SessionUser, channel: Channel) {
  const now = new Date();
  const days = retentionDaysOf(channel.id);
  const text = await conversationText(user, channel, now, { retention: days === null ? undefined : policyLine(days) });
  if (text === null) throw new ChatError("This conversation could not be read on this device.");
  downloadText(text, exportFileName(channel.name, now));
}

import { useEffect, useState } from "react";
import { messageOf } from "~/lib/errors";
import type { SessionUser } from "~/lib/session-user";
import type { Channel } from "~/features/channels/types";
import { attachLinkPreview } from "~/features/link-previews/previews.client";
import { sendMessage, type DecryptedMessage } from "~/features/messages/messages.client";
import { unionById } from "~/features/messages/merge";

interface History {
  add: (channelId: string, messages: DecryptedMessage[]) => void;
  update: (id: string, change: (m: DecryptedMessage) => DecryptedMessage) => void;
}

/** Sending a text message to the open channel; its link preview follows when the server finds one. */
export function useSend(user: SessionUser, channel: Channel | null, history: History) {
  const [sending, setSending] = useState(false);
  const [sendError, setSendError] = useState<string | null>(null);

  useEffect(() => setSendError(null), [channel?.id]);

  async function send(text: string, replyTo?: string): Promise<boolean> {
    if (!channel || sending || !text.trim()) return false;
    setSending(true);
    setSendError(null);
    try {
      const sent = await sendMessage(user, channel, text, replyTo);
      history.add(channel.id, [sent]);
      void attachLinkPreview(channel, sent).then((preview) => {
        if (preview) history.update(sent.id, (m) => ({ ...m, previews: unionById(m.previews, [preview]) }));
      });
      return true;
    } catch (error) {
      console.warn("Sending failed", error);
      setSendError(`${messageOf(error, "Failed to send message.")} Your message was not sent and is still in the box.`);
      return false;
    } finally {
      setSending(false);
    }
  }

  return { sending, sendError, send };
}

import { useEffect, useRef, useState, type FormEvent } from "react";
import { RetryId } from "~/lib/retry-id";
import { messageOf } from "~/lib/errors";
import { ApiError } from "~/lib/api.client";
import { useWhenBackOnline } from "~/lib/useOnline";
import type { SessionUser } from "~/lib/session-user";
import type { Notify } from "~/ui/Toast";
import type { Channel } from "~/conversation/channels/types";
import { sendMessage, type DecryptedMessage } from "~/features/messages/messages.client";
import { tooLongText } from "~/features/messages/text";
import { afterSent, draftOf, draftSent, keepDraft } from "~/features/messages/drafts.client";

/** What the thread's box says of a reply written while the device is offline. */
export const REPLY_WAITS_OFFLINE = "You are offline. Your reply goes by itself once you are back online.";

interface Reply {
  user: SessionUser;
  channel: Channel;
  rootId: string;
  /** The thread's draft: its key, and the text in the box. */
  draftKey: string;
  text: string;
  setText: (change: (current: string) => string) => void;
  /** Nothing can be sent (the root is gone). */
  gone: boolean;
  notify: Notify;
  onSent: (reply: DecryptedMessage) => void;
}

/**
 * Sending a thread's reply. A reply that could not go because the device is offline stays in the box
 * and goes by itself once the browser is back online, as a message written offline does (the outbox),
 * unless the box was typed on meanwhile (then the person sends it when ready); any other failure is said.
 */
export function useThreadReply({ user, channel, rootId, draftKey, text, setText, gone, notify, onSent }: Reply) {
  const [alsoToChannel, setAlsoToChannel] = useState(false);
  const [sending, setSending] = useState(false);
  // the text of the reply that waits for the connection, in this thread
  const [waiting, setWaiting] = useState<{ key: string; text: string } | null>(null);
  const keyNow = useRef(draftKey);
  keyNow.current = draftKey;
  const attempt = useRef(new RetryId());
  const waits = waiting !== null && waiting.key === draftKey && waiting.text === text;

  useEffect(() => {
    if (waiting && !waits) setWaiting(null);
  }, [waiting, waits]);

  async function send(event?: FormEvent) {
    event?.preventDefault();
    if (!text.trim() || sending || gone || tooLongText(text)) return;
    setSending(true);
    // The same reply sent again (its answer was lost) keeps its client id: the server stores it once.
    const clientId = attempt.current.for(JSON.stringify([text, alsoToChannel]));
    const sentFrom = draftKey;
    const sentText = text;
    try {
      const sent = await sendMessage(user, channel, text, undefined, clientId, { root: rootId, alsoInChannel: alsoToChannel });
      attempt.current.answered();
      setWaiting(null);
      draftSent(sentFrom, sentText);
      // (typed on meanwhile: that stays; another thread opened meanwhile: its draft stays, this one's goes)
      if (keyNow.current === sentFrom) setText((current) => afterSent(current, sentText));
      else keepDraft(sentFrom, afterSent(draftOf(sentFrom), sentText));
      setAlsoToChannel(false);
      onSent(sent);
    } catch (error) {
      if (error instanceof ApiError && error.status === 0 && navigator.onLine === false) setWaiting({ key: sentFrom, text: sentText });
      else notify(messageOf(error, "The reply could not be sent. Please try again."), "error");
    } finally {
      setSending(false);
    }
  }

  useWhenBackOnline(waits ? () => void send() : null);

  return { alsoToChannel, setAlsoToChannel, sending, waits, send };
}
